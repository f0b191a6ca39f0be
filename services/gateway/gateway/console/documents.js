// @ts-check
// The Documents tab: cards "Title (Version)" with their doc-type accent and set colour, grouped by
// set, with live ingestion progress and per-document actions (new version, retry, delete).

import { api, follow } from "./api.js";
import { confirmAction } from "./dialog.js";
import { announce, byId, displayTitle, el, fill, PALETTE, plural } from "./dom.js";
import { UploadDialog } from "./upload.js";

/** @typedef {import("./types.js").DocumentView} DocumentView */
/** @typedef {import("./types.js").IngestProgress} IngestProgress */
/** @typedef {import("./types.js").UploadResult} UploadResult */

const INGEST_EVENTS = ["ingest.progress", "document.ready", "document.failed"];
const STAGE_LABELS = {
  stored: "Stored",
  parsing: "Reading pages",
  parsed: "Pages read",
  chunked: "Split into passages",
  embedding: "Embedding passages",
  embedded: "Passages embedded",
  indexed: "Indexed",
};
const TYPE_LABELS = { regulatory: "Regulatory", policy: "Policy" };

/**
 * What a card says about a document's ingestion, from its record.
 * @param {{ status: string, pages?: number | null, chunks?: number | null, reason?: string | null }} doc
 */
function statusLine(doc) {
  if (doc.status === "ready") return `Ready · ${plural(doc.pages ?? 0, "page")} · ${plural(doc.chunks ?? 0, "chunk")}`;
  if (doc.status === "failed") return `Failed: ${doc.reason ?? "ingestion failed"}`;
  return "Processing…";
}

/** The documents tab; progress streams stay open while their documents are processing. */
export class Documents {
  constructor() {
    /** @type {Map<string, () => void>} document id -> close function */
    this.streams = new Map();
    /** @type {Map<string, IngestProgress>} document id -> latest progress */
    this.progress = new Map();
    /** @type {DocumentView[]} */
    this.items = [];
    this.uploads = new UploadDialog({ onUploaded: (result) => this.uploaded(result) });
  }

  /** @param {unknown} error */
  showError(error) {
    byId("documents-error").textContent = error instanceof Error ? error.message : String(error);
  }

  /** Open the upload dialog for a new document. */
  upload() {
    this.uploads.open().catch((error) => this.showError(error));
  }

  /** Stop following every document. */
  close() {
    for (const stop of this.streams.values()) stop();
    this.streams.clear();
  }

  /** Reload the list grouped by set, and follow every document still processing. */
  async refresh() {
    const list = await api("/v1/documents?group_by=set");
    this.items = list.documents;
    const container = byId("document-groups");
    if (!list.documents.length) {
      fill(container, el("p", { class: "empty", text: "No documents yet: upload one with +." }));
      return;
    }
    fill(container, (list.groups ?? []).map((/** @type {any} */ group) => this.renderGroup(group)));
    for (const doc of list.documents) {
      if (doc.status === "processing") this.followIngestion(doc);
    }
  }

  /** @param {{ set_name: string | null, colour: string | null, documents: DocumentView[] }} group */
  renderGroup(group) {
    const colour = group.colour && PALETTE.has(group.colour) ? group.colour : "none";
    const name = group.set_name ?? "Not in a set";
    return el(
      "section",
      { class: `document-group set-${colour}`, attrs: { "aria-label": name } },
      el("h3", { class: "set-name" }, el("span", { class: `swatch set-${colour}`, attrs: { "aria-hidden": "true" } }), name),
      el("ul", { class: "document-list" }, group.documents.map((doc) => this.renderDocument(doc, colour))),
    );
  }

  /** @param {DocumentView} doc @param {string} colour */
  renderDocument(doc, colour) {
    const name = displayTitle(doc);
    const status = el("p", { class: `doc-status status-${doc.status}`, text: statusLine(doc), attrs: { "data-testid": "doc-status" } });
    const bar = el("progress", { class: "doc-progress", max: 1, hidden: doc.status !== "processing", attrs: { "aria-label": `Ingestion of ${name}` } });
    const action = (/** @type {string} */ text, /** @type {string} */ label, /** @type {() => void} */ handler) =>
      el("button", { type: "button", class: "link-button", text, attrs: { "aria-label": label }, on: { click: handler } });
    const item = el(
      "li",
      { class: `document doctype-${doc.doc_type} set-${colour}`, attrs: { "data-document-id": doc.document_id } },
      el("p", { class: "doc-title" }, el("strong", { text: name })),
      el(
        "p",
        { class: "doc-meta" },
        el("span", { class: `type-tag doctype-${doc.doc_type}`, text: TYPE_LABELS[doc.doc_type] ?? doc.doc_type }),
        ` ${doc.filename}`,
      ),
      status,
      bar,
      el(
        "div",
        { class: "doc-actions" },
        action("New version", `New version of ${name}`, () => this.uploads.open(doc).catch((error) => this.showError(error))),
        doc.status === "failed" ? action("Retry", `Retry ${name}`, () => this.guard(() => this.retry(doc))) : null,
        action("Delete", `Delete ${name}`, () => this.guard(() => this.remove(doc))),
      ),
    );
    const seen = this.progress.get(doc.document_id);
    if (seen && doc.status === "processing") this.showProgress(item, seen);
    return item;
  }

  /** @param {() => Promise<void>} action */
  guard(action) {
    byId("documents-error").textContent = "";
    action().catch((error) => this.showError(error));
  }

  /** @param {string} documentId */
  itemOf(documentId) {
    return document.querySelector(`li.document[data-document-id="${CSS.escape(documentId)}"]`);
  }

  /** @param {Element} item @param {IngestProgress} progress */
  showProgress(item, progress) {
    const label = STAGE_LABELS[progress.stage] ?? progress.stage;
    const counted = progress.total ? ` ${progress.done ?? 0}/${progress.total}` : "";
    /** @type {HTMLElement} */ (item.querySelector(".doc-status")).textContent = `${label}${counted}…`;
    const bar = /** @type {HTMLProgressElement} */ (item.querySelector(".doc-progress"));
    bar.hidden = false;
    if (progress.total) {
      bar.max = progress.total;
      bar.value = progress.done ?? 0;
    } else {
      bar.removeAttribute("value"); // indeterminate
    }
  }

  /**
   * Follow one document's ingestion events until it is ready or failed.
   * @param {DocumentView} doc
   */
  followIngestion(doc) {
    if (this.streams.has(doc.document_id)) return;
    const url = new URL(doc.events_url, location.href);
    url.searchParams.set("request_id", doc.request_id);
    const stop = follow(
      url.href,
      INGEST_EVENTS,
      (type, event) => this.onIngestEvent(doc, type, event),
      (message) => {
        this.streams.delete(doc.document_id);
        this.showError(message);
      },
    );
    this.streams.set(doc.document_id, stop);
  }

  /** @param {DocumentView} doc @param {string} type @param {any} event */
  onIngestEvent(doc, type, event) {
    if (event.request_id !== doc.request_id) return; // an earlier attempt's events
    const item = this.itemOf(doc.document_id);
    if (type === "ingest.progress") {
      this.progress.set(doc.document_id, event);
      if (item) this.showProgress(item, event);
      return;
    }
    this.streams.get(doc.document_id)?.();
    this.streams.delete(doc.document_id);
    this.progress.delete(doc.document_id);
    // The card is drawn again from the record: its actions (Retry) follow the new status.
    this.refresh().catch((error) => this.showError(error));
    const done = type === "document.ready" ? { status: "ready", pages: event.pages, chunks: event.chunks } : { status: "failed", reason: event.reason };
    announce(`${displayTitle(doc)}: ${statusLine(done)}`);
  }

  /** @param {UploadResult} result */
  async uploaded(result) {
    announce(result.duplicate ? "This file was uploaded before." : `Uploading ${displayTitle(result.document)}.`);
    await this.refresh();
    if (result.status === "processing") this.followIngestion(result.document);
    this.itemOf(result.document_id)?.scrollIntoView({ block: "nearest" });
  }

  /** @param {DocumentView} doc */
  async retry(doc) {
    /** @type {UploadResult} */
    const result = await api(`/v1/documents/${encodeURIComponent(doc.document_id)}/retry`, { method: "POST" });
    announce(`Retrying ${displayTitle(doc)}.`);
    await this.uploaded(result);
  }

  /** @param {DocumentView} doc */
  async remove(doc) {
    const confirmed = await confirmAction({
      title: "Delete the document?",
      text: `“${displayTitle(doc)}” will be deleted; its passages leave every answer.`,
      confirmLabel: "Delete document",
    });
    if (!confirmed) return;
    await api(`/v1/documents/${encodeURIComponent(doc.document_id)}`, { method: "DELETE" });
    this.streams.get(doc.document_id)?.();
    this.streams.delete(doc.document_id);
    announce(`Deleted ${displayTitle(doc)}.`);
    await this.refresh();
  }
}
