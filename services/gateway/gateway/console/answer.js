// Rendering messages: answers with [N] markers linked to their citations, confidence, model and cost,
// audit findings by target then severity, and PalAssist questions as buttons and inputs.

import { el, safeHref, when } from "./dom.js";

const SEVERITY_ORDER = ["Critical", "High", "Medium", "Low"];
let renderedAnswers = 0;

/** A marker `[N]` as a link to citation N of this answer (plain text when there is no such citation). */
function markerLink(marker, anchorPrefix, markers) {
  if (!markers.has(marker)) return `[${marker}]`;
  return el("a", {
    class: "marker",
    href: `#${anchorPrefix}-${marker}`,
    text: `[${marker}]`,
    attrs: { "aria-label": `Source ${marker}` },
  });
}

/** One line's text with `**bold**` spans and `[N]` markers as nodes (never parsed as HTML). */
function inline(line, anchorPrefix, markers) {
  return line.split(/(\*\*[^*]+\*\*)/).map((part) => {
    if (/^\*\*[^*]+\*\*$/.test(part)) return el("strong", { text: part.slice(2, -2) });
    const nodes = [];
    let last = 0;
    for (const match of part.matchAll(/\[(\d+)\]/g)) {
      nodes.push(part.slice(last, match.index), markerLink(Number(match[1]), anchorPrefix, markers));
      last = match.index + match[0].length;
    }
    nodes.push(part.slice(last));
    return nodes;
  });
}

/** The answer text: lines kept, `#` headings and `**bold**` shown as such, `[N]` linked to its source. */
function answerText(text, anchorPrefix, markers) {
  const lines = text.split("\n").map((line) => {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) return el("strong", { class: "answer-heading" }, inline(heading[1], anchorPrefix, markers));
    return inline(line, anchorPrefix, markers);
  });
  return el("div", { class: "answer-text" }, lines.flatMap((line, i) => (i ? ["\n", line] : [line])));
}

function documentCitation(citation, anchorPrefix) {
  const where = [`version ${citation.version}`, citation.page ? `page ${citation.page}` : null].filter(Boolean);
  return el(
    "li",
    { id: `${anchorPrefix}-${citation.marker}`, class: "citation", attrs: { "data-marker": citation.marker } },
    el("span", { class: "citation-marker", text: `[${citation.marker}]` }),
    " ",
    el("strong", { text: citation.title }),
    el("span", { class: "citation-where", text: ` · ${where.join(" · ")}` }),
    el("blockquote", { text: citation.quote }),
  );
}

function webCitation(citation, anchorPrefix) {
  const href = safeHref(citation.url);
  const title = href
    ? el("a", { href, text: citation.title || href, target: "_blank", rel: "noopener noreferrer" })
    : el("strong", { text: citation.title });
  return el(
    "li",
    { id: `${anchorPrefix}-${citation.marker}`, class: "citation web", attrs: { "data-marker": citation.marker } },
    el("span", { class: "citation-marker", text: `[${citation.marker}]` }),
    " ",
    title,
    el("span", { class: "citation-where", text: " · web" }),
    el("blockquote", { text: citation.quote }),
  );
}

function citationList(citations, webCitations, anchorPrefix) {
  const all = [
    ...citations.map((c) => ({ marker: c.marker, node: documentCitation(c, anchorPrefix) })),
    ...webCitations.map((c) => ({ marker: c.marker, node: webCitation(c, anchorPrefix) })),
  ].sort((a, b) => a.marker - b.marker);
  if (!all.length) return null;
  return el(
    "section",
    { class: "citations", attrs: { "aria-label": "Sources" } },
    el("h4", { text: "Sources" }),
    el("ol", { class: "citation-list" }, all.map((entry) => entry.node)),
  );
}

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

function confidenceLine(response) {
  const badges = [];
  // Retrieval confidence is the answer's: how well the passages support it. Inference confidence is
  // how sure PolicyPal was about which documents the question meant.
  const answer = response.retrieval_confidence;
  const documents = response.inference_confidence;
  if (answer) badges.push(el("span", { class: `badge confidence-${answer}`, text: `Confidence: ${answer}` }));
  if (documents) {
    badges.push(el("span", { class: `badge confidence-${documents}`, text: `Document match: ${documents}` }));
  }
  if (response.cached) badges.push(el("span", { class: "badge", text: "From cache" }));
  if (response.answered_by === "reviewer") badges.push(el("span", { class: "badge", text: "Answered by a reviewer" }));
  return badges.length ? el("p", { class: "badges" }, badges) : null;
}

/** Audit findings grouped by target document (in the order given) then by severity. */
function auditFindings(result, anchorPrefix, markers) {
  if (!result || !Array.isArray(result.findings)) return null;
  const targets = new Map();
  for (const finding of result.findings) {
    const key = finding.target_doc_id;
    if (!targets.has(key)) targets.set(key, { title: finding.target_doc_title, findings: [] });
    targets.get(key).findings.push(finding);
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
          el("ul", {}, group.map((finding) => auditFinding(finding, anchorPrefix, markers))),
        );
      }),
    ),
  );
  return el(
    "section",
    { class: "audit", attrs: { "aria-label": "Audit findings" } },
    el("h4", { text: `Audit: ${result.overall_status}` }),
    el("p", { text: result.summary }),
    sections.length ? sections : el("p", { text: "No findings." }),
    coverageSummary(result.coverage),
  );
}

/** How the policy covers the binding rules of the target sections it touches (policy mode). */
function coverageSummary(coverage) {
  if (!Array.isArray(coverage) || !coverage.length) return null;
  const count = (status) => coverage.filter((rule) => rule.status === status).length;
  return el("p", {
    class: "answer-meta",
    text:
      `Coverage of the rules in the sections your policy touches: ${count("addressed")} addressed, ` +
      `${count("contradicted")} contradicted, ${count("not_addressed")} not mentioned.`,
  });
}

function auditFinding(finding, anchorPrefix, markers) {
  const cite = (marker) => (marker ? [" ", markerLink(marker, anchorPrefix, markers)] : null);
  return el(
    "li",
    { class: "finding" },
    finding.theme ? el("p", { class: "finding-theme", text: `Theme: ${finding.theme}` }) : null,
    el("p", {}, el("strong", { text: "Source: " }), finding.source_quote, cite(finding.source_marker)),
    el("p", {}, el("strong", { text: "Target: " }), finding.target_quote, cite(finding.target_marker), where(finding)),
    finding.rationale ? el("p", {}, el("strong", { text: "Why: " }), finding.rationale) : null,
    el("p", {}, el("strong", { text: "Suggestion: " }), finding.suggestion),
    el("p", { class: "answer-meta", text: `${finding.consequence} · similarity ${finding.confidence_score}` }),
  );
}

/** " (p. 90, §9.1.2 Site-specific programs)" after a rule's quote, when the result says where it stands. */
function where(finding) {
  const parts = [];
  if (finding.target_page) parts.push(`p. ${finding.target_page}`);
  if (finding.target_section) parts.push(`§${finding.target_section}`);
  return parts.length ? ` (${parts.join(", ")})` : null;
}

/** An assistant answer: a `response` event, or a stored assistant message rebuilt as one. */
export function renderAnswer(response) {
  renderedAnswers += 1;
  const anchorPrefix = `cite-${renderedAnswers}`;
  const citations = response.citations ?? [];
  const webCitations = response.web_citations ?? [];
  const markers = new Set([...citations, ...webCitations].map((c) => c.marker));
  const text = answerText(response.answer ?? "", anchorPrefix, markers);
  const audit = auditFindings(response.result, anchorPrefix, markers);
  return el(
    "li",
    { class: "message assistant", tabIndex: -1, attrs: { "data-testid": "answer" } },
    el("p", { class: "message-role", text: response.action ? `PolicyPal · @${response.action}` : "PolicyPal" }),
    confidenceLine(response),
    response.caution ? el("p", { class: "caution", attrs: { role: "note" }, text: response.caution }) : null,
    // An audit shows its findings structured; its report text stays one click away.
    audit ? el("details", {}, el("summary", { text: "Full report text" }), text) : text,
    (response.notices ?? []).map((notice) => el("p", { class: "notice", text: notice })),
    audit,
    citationList(citations, webCitations, anchorPrefix),
    costLine(response.model, response.usage),
  );
}

export function renderUserMessage(text, createdAt) {
  return el(
    "li",
    { class: "message user", tabIndex: -1 },
    el("p", { class: "message-role", text: createdAt ? `You · ${when(createdAt)}` : "You" }),
    el("div", { class: "answer-text", text }),
  );
}

/** A notice in the thread: an error, a cancellation, an escalation, a question already answered. */
export function renderNotice(text, kind = "notice") {
  return el("li", { class: `message system ${kind}`, tabIndex: -1, attrs: { role: kind === "error" ? "alert" : null } }, text);
}

/** A message of the stored history. */
export function renderStored(message) {
  const meta = message.metadata ?? {};
  if (message.role === "user") return renderUserMessage(message.content, message.created_at);
  if (meta.error_code) return renderNotice(message.content, meta.error_code === "cancelled" ? "notice" : "error");
  if (message.role === "system") return renderNotice(message.content);
  return renderAnswer({
    answer: message.content,
    action: meta.action,
    citations: meta.citations,
    web_citations: meta.web_citations,
    model: meta.model,
    usage: meta.usage,
  });
}

/**
 * A PalAssist question. `onAnswer(value)` sends the chosen option id or typed text;
 * `onCancel()` cancels the question.
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
            submit: (event) => {
              event.preventDefault();
              if (input.value.trim()) onAnswer(input.value.trim());
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
        options.map((option) =>
          el("button", { type: "button", text: option.label, on: { click: () => onAnswer(option.id) } }),
        ),
      ),
    );
  }
  controls.push(el("button", { type: "button", class: "link-button", text: "Cancel", on: { click: onCancel } }));
  return el(
    "li",
    { class: "message interrupt", tabIndex: -1, attrs: { "data-testid": "interrupt" } },
    el("p", { class: "message-role", text: "PalAssist" }),
    el("p", { text: interrupt.message }),
    controls,
  );
}
