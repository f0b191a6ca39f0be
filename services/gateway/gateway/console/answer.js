// @ts-check
// Rendering messages: answers (Markdown with [N] markers that open the Sources panel, confidence
// badges, model and cost), PalReasoning steps, audit findings by target then severity with the
// coverage table, and PalAssist questions as buttons and inputs.

import { displayTitle, el, when } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

/** @typedef {import("./types.js").ResponseEvent} ResponseEvent */
/** @typedef {import("./types.js").AuditResult} AuditResult */
/** @typedef {import("./types.js").AuditFinding} AuditFinding */
/** @typedef {import("./types.js").RuleCoverage} RuleCoverage */
/** @typedef {import("./types.js").InterruptEvent} InterruptEvent */
/** @typedef {import("./types.js").StoredMessage} StoredMessage */
/** @typedef {(answer: ResponseEvent, marker: number) => void} CiteHandler */
/** @typedef {{ title: string, version: string, doc_type?: string }} DocumentPill */
/** @typedef {{ stage: string, message: string, documents: DocumentPill[] }} ReasoningStep */

const SEVERITY_ORDER = ["Critical", "High", "Medium", "Low"];
const COVERAGE_LABELS = { addressed: "Addressed", contradicted: "Contradicted", not_addressed: "Not addressed" };

/**
 * A marker `[N]` as a button that opens source N (plain text when the answer has no such source).
 * @param {ResponseEvent} answer
 * @param {Set<number>} markers
 * @param {CiteHandler} onCite
 */
function markerRenderer(answer, markers, onCite) {
  return (/** @type {number} */ marker) => {
    if (!markers.has(marker)) return `[${marker}]`;
    return el("button", {
      type: "button",
      class: "marker",
      text: `[${marker}]`,
      attrs: { "aria-label": `Source ${marker}`, "data-marker": marker },
      on: { click: () => onCite(answer, marker) },
    });
  };
}

/**
 * A pill naming a document, coloured by its type.
 * @param {DocumentPill} doc
 */
export function documentPill(doc) {
  return el("span", { class: `pill doctype-${doc.doc_type ?? "unknown"}`, text: displayTitle(doc) });
}

/**
 * PalReasoning: the steps a request went through, with the documents found as pills.
 * @param {ReasoningStep[]} steps
 * @param {{ open?: boolean }} [options]
 */
export function renderReasoning(steps, { open = false } = {}) {
  const list = el(
    "ol",
    { class: "reasoning-steps" },
    steps.map((step) =>
      el(
        "li",
        { class: `reasoning-step stage-${step.stage}`, attrs: { "data-stage": step.stage } },
        el("span", { class: "step-text", text: step.documents.length ? step.message.replace(/:.*$/, ":") : step.message }),
        step.documents.length ? el("span", { class: "pills" }, step.documents.map(documentPill)) : null,
      ),
    ),
  );
  return el(
    "details",
    { class: "reasoning", open, attrs: { "data-testid": "reasoning" } },
    el("summary", { text: `PalReasoning · ${steps.length} step${steps.length === 1 ? "" : "s"}` }),
    list,
  );
}

/** @param {string | undefined} model @param {import("./types.js").Usage | undefined} usage */
function costLine(model, usage) {
  if (!model) return null;
  const parts = [`Model ${model}`];
  if (usage) {
    parts.push(`${usage.prompt_tokens ?? 0} + ${usage.completion_tokens ?? 0} tokens`);
    const cost = Number(usage.cost_usd ?? 0);
    parts.push(`$${cost.toFixed(cost && cost < 0.01 ? 5 : 2)}${usage.estimated ? " (estimated)" : ""}`);
  }
  return el("p", { class: "answer-meta", text: parts.join(" · ") });
}

/** @param {ResponseEvent} response */
function confidenceLine(response) {
  const badges = [];
  // Retrieval confidence is the answer's: how well the passages support it. Inference confidence is
  // how sure PolicyPal was about which documents the question meant.
  const answer = response.retrieval_confidence;
  const documents = response.inference_confidence;
  if (answer) badges.push(el("span", { class: `badge confidence-${answer}`, text: `Confidence: ${answer}` }));
  if (documents) badges.push(el("span", { class: `badge confidence-${documents}`, text: `Document match: ${documents}` }));
  if (response.cached) badges.push(el("span", { class: "badge", text: "From cache" }));
  if (response.answered_by === "reviewer") badges.push(el("span", { class: "badge reviewer", text: "Answered by a reviewer" }));
  return badges.length ? el("p", { class: "badges" }, badges) : null;
}

/**
 * Audit findings grouped by target document (in the order given) then by severity, and coverage.
 * @param {any} result
 * @param {(marker: number) => Node | string} marker
 */
function auditFindings(result, marker) {
  if (!result || !Array.isArray(result.findings)) return null;
  const audit = /** @type {AuditResult} */ (result);
  /** @type {Map<string, { title: string, findings: AuditFinding[] }>} */
  const targets = new Map();
  for (const finding of audit.findings) {
    const key = finding.target_doc_id;
    if (!targets.has(key)) targets.set(key, { title: finding.target_doc_title, findings: [] });
    targets.get(key)?.findings.push(finding);
  }
  const sections = [...targets.values()].map((target) =>
    el(
      "section",
      { class: "audit-target" },
      el("h5", { text: target.title }),
      SEVERITY_ORDER.map((severity) => {
        const group = target.findings.filter((f) => f.severity === severity);
        if (!group.length) return null;
        return el(
          "div",
          { class: `severity severity-${severity.toLowerCase()}` },
          el("h6", { text: `${severity} (${group.length})` }),
          el("ul", {}, group.map((finding) => auditFinding(finding, marker))),
        );
      }),
    ),
  );
  const status = audit.overall_status ?? "";
  return el(
    "section",
    { class: "audit", attrs: { "aria-label": "Audit findings" } },
    el("h4", {}, "Audit: ", el("span", { class: `status-pill status-${status.toLowerCase().replace(/\s+/g, "-")}`, text: status })),
    el("p", { text: audit.summary }),
    sections.length ? sections : el("p", { text: "No findings." }),
    coverageTable(audit.coverage, marker),
  );
}

/**
 * How the policy covers the binding rules of the target sections it touches (policy mode).
 * @param {RuleCoverage[] | undefined} coverage
 * @param {(marker: number) => Node | string} marker
 */
function coverageTable(coverage, marker) {
  if (!Array.isArray(coverage) || !coverage.length) return null;
  const count = (/** @type {string} */ status) => coverage.filter((rule) => rule.status === status).length;
  return el(
    "section",
    { class: "coverage", attrs: { "aria-label": "Coverage" } },
    el("h5", { text: "Coverage of the rules in the sections your policy touches" }),
    el("p", {
      class: "answer-meta",
      text: `${count("addressed")} addressed, ${count("contradicted")} contradicted, ${count("not_addressed")} not mentioned.`,
    }),
    el(
      "div",
      { class: "table-wrap", tabIndex: 0, attrs: { role: "region", "aria-label": "Coverage table" } },
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, ["Rule", "Where", "Status", "Your policy"].map((h) => el("th", { text: h, attrs: { scope: "col" } })))),
        el(
          "tbody",
          {},
          coverage.map((rule) =>
            el(
              "tr",
              { class: `coverage-${rule.status}` },
              el("td", {}, rule.rule_quote, rule.target_marker ? [" ", marker(rule.target_marker)] : null),
              el("td", { text: [rule.rule_page ? `p. ${rule.rule_page}` : "", rule.rule_section ? `§${rule.rule_section}` : ""].filter(Boolean).join(", ") }),
              el("td", {}, el("span", { class: `status-pill coverage-status-${rule.status}`, text: COVERAGE_LABELS[rule.status] ?? rule.status })),
              el("td", {}, rule.source_quote ?? "—", rule.source_marker ? [" ", marker(rule.source_marker)] : null),
            ),
          ),
        ),
      ),
    ),
  );
}

/** @param {AuditFinding} finding @param {(marker: number) => Node | string} marker */
function auditFinding(finding, marker) {
  const cite = (/** @type {number | null | undefined} */ n) => (n ? [" ", marker(n)] : null);
  const where = [finding.target_page ? `p. ${finding.target_page}` : "", finding.target_section ? `§${finding.target_section}` : ""].filter(Boolean);
  return el(
    "li",
    { class: "finding" },
    finding.theme ? el("p", { class: "finding-theme", text: `Theme: ${finding.theme}` }) : null,
    el("p", {}, el("strong", { text: "Source: " }), finding.source_quote, cite(finding.source_marker)),
    el("p", {}, el("strong", { text: "Target: " }), finding.target_quote, cite(finding.target_marker), where.length ? ` (${where.join(", ")})` : null),
    finding.rationale ? el("p", {}, el("strong", { text: "Why: " }), finding.rationale) : null,
    el("p", {}, el("strong", { text: "Suggestion: " }), finding.suggestion),
    el("p", { class: "answer-meta", text: `${finding.consequence} · similarity ${finding.confidence_score}` }),
  );
}

/**
 * The answer's sources as chips under it: each opens the Sources panel on that source.
 * @param {ResponseEvent} response
 * @param {CiteHandler} onCite
 */
function sourceChips(response, onCite) {
  const all = [
    ...(response.citations ?? []).map((c) => ({ marker: c.marker, label: `${displayTitle(c)}${c.page ? ` · p. ${c.page}` : ""}` })),
    ...(response.web_citations ?? []).map((c) => ({ marker: c.marker, label: `${c.title || c.url} · web` })),
  ].sort((a, b) => a.marker - b.marker);
  if (!all.length) return null;
  return el(
    "div",
    { class: "source-chips", attrs: { role: "group", "aria-label": "Sources" } },
    all.map((source) =>
      el("button", {
        type: "button",
        class: "source-chip",
        attrs: { "data-marker": source.marker },
        on: { click: () => onCite(response, source.marker) },
        text: `[${source.marker}] ${source.label}`,
      }),
    ),
  );
}

/**
 * An assistant answer: a `response` event, or a stored assistant message rebuilt as one.
 * @param {ResponseEvent} response
 * @param {{ onCite: CiteHandler, reasoning?: ReasoningStep[] }} options
 */
export function renderAnswer(response, { onCite, reasoning = [] }) {
  const markers = new Set([...(response.citations ?? []), ...(response.web_citations ?? [])].map((c) => c.marker));
  const marker = markerRenderer(response, markers, onCite);
  const text = renderMarkdown(response.answer ?? "", marker);
  const audit = auditFindings(response.result, marker);
  const role = response.answered_by === "reviewer" ? "Reviewer" : "PolicyPal";
  return el(
    "li",
    {
      class: `message assistant${response.answered_by === "reviewer" ? " reviewer" : ""}`,
      tabIndex: -1,
      attrs: { "data-testid": "answer", "data-message-id": response.message_id ?? null },
    },
    el("p", { class: "message-role", text: response.action ? `${role} · @${response.action}` : role }),
    reasoning.length ? renderReasoning(reasoning) : null,
    confidenceLine(response),
    response.caution ? el("p", { class: "caution", attrs: { role: "note" }, text: response.caution }) : null,
    // An audit shows its findings structured; its report text stays one click away.
    audit ? el("details", { class: "report" }, el("summary", { text: "Full report text" }), text) : text,
    (response.notices ?? []).map((notice) => el("p", { class: "notice", text: notice })),
    audit,
    sourceChips(response, onCite),
    costLine(response.model, response.usage),
  );
}

/** @param {string} text @param {string} [createdAt] */
export function renderUserMessage(text, createdAt) {
  return el(
    "li",
    { class: "message user", tabIndex: -1 },
    el("p", { class: "message-role", text: createdAt ? `You · ${when(createdAt)}` : "You" }),
    el("div", { class: "answer-text plain", text }),
  );
}

/**
 * A notice in the thread: an error, a cancellation, an escalation, a question already answered.
 * @param {string} text
 * @param {string} [kind]
 */
export function renderNotice(text, kind = "notice") {
  return el("li", { class: `message system ${kind}`, tabIndex: -1, attrs: { role: kind.includes("error") ? "alert" : null } }, text);
}

/**
 * A message of the stored history.
 * @param {StoredMessage} message
 * @param {CiteHandler} onCite
 */
export function renderStored(message, onCite) {
  const meta = message.metadata ?? {};
  if (message.role === "user") return renderUserMessage(message.content, message.created_at);
  if (meta.error_code) return renderNotice(message.content, meta.error_code === "cancelled" ? "notice" : "error");
  if (meta.kind === "escalation") return renderNotice(message.content, "notice escalation");
  if (meta.interrupt) return renderNotice(`PalAssist asked: ${meta.interrupt.message}`, "notice asked");
  if (message.role === "system") return renderNotice(message.content);
  return renderAnswer(
    {
      message_id: message.message_id,
      answer: message.content,
      action: meta.action,
      citations: meta.citations,
      web_citations: meta.web_citations,
      model: meta.model,
      usage: meta.usage,
      answered_by: meta.answered_by ?? null,
    },
    { onCite },
  );
}

/**
 * A PalAssist question. `onAnswer(value)` sends the chosen option id or typed text;
 * `onCancel()` cancels the question.
 * @param {InterruptEvent} interrupt
 * @param {{ onAnswer: (value: string) => void, onCancel: () => void }} handlers
 */
export function renderInterrupt(interrupt, { onAnswer, onCancel }) {
  const options = interrupt.options ?? [];
  const controls = [];
  if (interrupt.interrupt_type === "text_input") {
    const input = el("input", { type: "text", id: `answer-${interrupt.interrupt_id}`, required: true });
    controls.push(
      el(
        "form",
        {
          class: "interrupt-text",
          on: {
            submit: (/** @type {Event} */ event) => {
              event.preventDefault();
              const value = /** @type {HTMLInputElement} */ (input).value.trim();
              if (value) onAnswer(value);
            },
          },
        },
        el("label", { htmlFor: input.id, text: "Your answer" }),
        input,
        el("button", { type: "submit", text: "Send answer" }),
      ),
    );
  }
  if (options.length) {
    controls.push(
      el(
        "div",
        { class: "interrupt-options", attrs: { role: "group", "aria-label": "Choices" } },
        options.map((option) => el("button", { type: "button", text: option.label, on: { click: () => onAnswer(option.id) } })),
      ),
    );
  }
  controls.push(el("button", { type: "button", class: "link-button", text: "Cancel", on: { click: onCancel } }));
  return el(
    "div",
    { class: "interrupt", tabIndex: -1, attrs: { "data-testid": "interrupt" } },
    el("p", { class: "message-role", text: "PalAssist" }),
    el("p", { class: "interrupt-message", text: interrupt.message }),
    controls,
  );
}
