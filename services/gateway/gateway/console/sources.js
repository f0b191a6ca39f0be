// @ts-check
// The Sources panel on the right: an answer's citations, opened on a marker click with that source
// selected (its excerpt, document, version and page, or the web page's address).

import { byId, displayTitle, el, fill, safeHref } from "./dom.js";

/** @typedef {import("./types.js").Citation} Citation */
/** @typedef {import("./types.js").WebCitation} WebCitation */
/** @typedef {{ citations?: Citation[], web_citations?: WebCitation[] }} Cited */

/** @param {Citation} citation */
function documentCard(citation) {
  return el(
    "article",
    { class: "source-card", tabIndex: -1, attrs: { "data-marker": citation.marker, "data-testid": "source" } },
    el("p", { class: "source-head" }, el("span", { class: "citation-marker", text: `[${citation.marker}]` }), " ", el("strong", { text: displayTitle(citation) })),
    el(
      "dl",
      { class: "source-where" },
      el("dt", { text: "Document" }),
      el("dd", { text: citation.title }),
      el("dt", { text: "Version" }),
      el("dd", { text: citation.version || "—" }),
      el("dt", { text: "Page" }),
      el("dd", { text: citation.page ? String(citation.page) : "—" }),
    ),
    el("blockquote", { class: "excerpt", text: citation.quote }),
  );
}

/** @param {WebCitation} citation */
function webCard(citation) {
  const href = safeHref(citation.url);
  return el(
    "article",
    { class: "source-card web", tabIndex: -1, attrs: { "data-marker": citation.marker, "data-testid": "source" } },
    el("p", { class: "source-head" }, el("span", { class: "citation-marker", text: `[${citation.marker}]` }), " ", el("strong", { text: citation.title || citation.url }), " ", el("span", { class: "badge", text: "Web" })),
    el(
      "p",
      { class: "source-url" },
      href ? el("a", { href, text: href, target: "_blank", rel: "noopener noreferrer" }) : citation.url,
    ),
    el("blockquote", { class: "excerpt", text: citation.quote }),
  );
}

/** The panel; `onToggle(open)` lets the layout make room for it. */
export class SourcesPanel {
  /** @param {{ onToggle: (open: boolean) => void }} options */
  constructor({ onToggle }) {
    this.onToggle = onToggle;
    /** @type {Cited | null} */
    this.shown = null;
    byId("close-sources").onclick = () => this.close();
    byId("toggle-sources").onclick = () => (this.isOpen ? this.close() : this.open());
    this.renderEmpty();
  }

  get isOpen() {
    return !byId("sources-panel").hidden;
  }

  renderEmpty() {
    fill(byId("source-list"), el("p", { class: "empty", text: "Click a citation marker like [1] in an answer to see its source here." }));
  }

  /**
   * Show the sources of an answer, with `marker` selected.
   * @param {Cited} answer
   * @param {number} marker
   */
  show(answer, marker) {
    const cards = [
      ...(answer.citations ?? []).map((c) => ({ marker: c.marker, node: documentCard(c) })),
      ...(answer.web_citations ?? []).map((c) => ({ marker: c.marker, node: webCard(c) })),
    ].sort((a, b) => a.marker - b.marker);
    this.shown = answer;
    fill(byId("source-list"), cards.map((card) => card.node));
    this.open();
    const selected = cards.find((card) => card.marker === marker)?.node;
    if (selected) {
      selected.classList.add("selected");
      selected.setAttribute("aria-current", "true");
      selected.scrollIntoView({ block: "nearest" });
      selected.focus({ preventScroll: true });
    }
  }

  open() {
    byId("sources-panel").hidden = false;
    byId("toggle-sources").setAttribute("aria-expanded", "true");
    this.onToggle(true);
  }

  close() {
    byId("sources-panel").hidden = true;
    byId("toggle-sources").setAttribute("aria-expanded", "false");
    this.onToggle(false);
  }

  /** Forget the sources of the conversation that was open. */
  clear() {
    this.shown = null;
    this.renderEmpty();
  }
}
