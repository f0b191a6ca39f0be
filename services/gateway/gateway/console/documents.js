// The documents panel: upload with live ingestion progress, the list grouped by set, delete.

import { api, follow } from "./api.js";
import { confirmAction } from "./dialog.js";
import { announce, el, fill } from "./dom.js";

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
const PALETTE = new Set(["blue", "green", "orange", "purple", "teal", "red", "amber", "pink", "indigo", "slate"]);

const $ = (id) => document.getElementById(id);

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** What the list says about a document's ingestion, from its record. */
function statusLine(doc) {
  if (doc.status === "ready") {
    return `Ready · ${plural(doc.pages ?? 0, "page")} · ${plural(doc.chunks ?? 0, "chunk")}`;
  }
  if (doc.status === "failed") return `Failed: ${doc.reason ?? "ingestion failed"}`;
  return "Processing…";
}

/** The documents panel; progress streams stay open while their documents are processing. */
export class Documents {
  constructor() {
    this.streams = new Map(); // document id -> close function
    this.progress = new Map(); // document id -> latest progress payload
    $("upload-form").onsubmit = (event) => {
      event.preventDefault();
      this.upload().catch((error) => {
        $("upload-error").textContent = error.message;
      });
    };
  }

  /** Stop following every document. */
  close() {
    for (const stop of this.streams.values()) stop();
    this.streams.clear();
  }

  /** Reload the list grouped by set, and follow every document still processing. */
  async refresh() {
    const list = await api("/v1/documents?group_by=set");
    const groups = list.groups ?? [];
    const container = $("document-groups");
    if (!list.documents.length) {
      fill(container, el("p", { class: "empty", text: "No documents yet: upload one above." }));
      return;
    }
    fill(container, groups.map((group) => this.renderGroup(group)));
    for (const doc of list.documents) {
      if (doc.status === "processing") this.followIngestion(doc);
    }
  }

  renderGroup(group) {
    const colour = PALETTE.has(group.colour) ? group.colour : "none";
    const name = group.set_name ?? "Not in a set";
    return el(
      "section",
      { class: "document-group", attrs: { "aria-label": name } },
      el("h3", { class: `set-name set-${colour}`, text: name }),
      el("ul", { class: "document-list" }, group.documents.map((doc) => this.renderDocument(doc))),
    );
  }

  renderDocument(doc) {
    const status = el("p", {
      class: `doc-status status-${doc.status}`,
      text: statusLine(doc),
      attrs: { "data-testid": "doc-status" },
    });
    const bar = el("progress", { class: "doc-progress", max: 1, value: 0, hidden: doc.status !== "processing" });
    bar.setAttribute("aria-label", `Ingestion of ${doc.title}`);
    const item = el(
      "li",
      { class: "document", attrs: { "data-document-id": doc.document_id } },
      el("div", { class: "doc-title" }, el("strong", { text: doc.title }), ` · version ${doc.version}`),
      el("p", { class: "doc-meta", text: `${doc.doc_type} · ${doc.filename}` }),
      status,
      bar,
      el("button", {
        type: "button",
        class: "link-button",
        text: "Delete",
        attrs: { "aria-label": `Delete ${doc.title} version ${doc.version}` },
        on: { click: () => this.remove(doc) },
      }),
    );
    const seen = this.progress.get(doc.document_id);
    if (seen && doc.status === "processing") this.showProgress(item, seen);
    return item;
  }

  itemOf(documentId) {
    return document.querySelector(`li.document[data-document-id="${CSS.escape(documentId)}"]`);
  }

  showProgress(item, progress) {
    const label = STAGE_LABELS[progress.stage] ?? progress.stage;
    const counted = progress.total ? ` ${progress.done ?? 0}/${progress.total}` : "";
    item.querySelector(".doc-status").textContent = `${label}${counted}…`;
    const bar = item.querySelector(".doc-progress");
    bar.hidden = false;
    if (progress.total) {
      bar.max = progress.total;
      bar.value = progress.done ?? 0;
    } else {
      bar.removeAttribute("value"); // indeterminate
    }
  }

  /** Follow one document's ingestion events until it is ready or failed. */
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
        $("upload-error").textContent = message;
      },
    );
    this.streams.set(doc.document_id, stop);
  }

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
    const done =
      type === "document.ready"
        ? { status: "ready", pages: event.pages, chunks: event.chunks }
        : { status: "failed", reason: event.reason };
    if (item) {
      const status = item.querySelector(".doc-status");
      status.textContent = statusLine(done);
      status.className = `doc-status status-${done.status}`;
      item.querySelector(".doc-progress").hidden = true;
    }
    announce(`${doc.title}: ${statusLine(done)}`);
  }

  async upload() {
    $("upload-error").textContent = "";
    const form = $("upload-form");
    const data = new FormData(form);
    if (!String(data.get("set_name") ?? "").trim()) data.delete("set_name");
    const result = await api("/v1/documents", { method: "POST", form: data });
    form.reset();
    announce(result.duplicate ? "This file was uploaded before." : `Uploading ${result.document.title}.`);
    await this.refresh();
    if (result.status === "processing") this.followIngestion(result.document);
  }

  async remove(doc) {
    const confirmed = await confirmAction({
      title: "Delete the document?",
      text: `“${doc.title}” version ${doc.version} will be deleted; its passages leave every answer.`,
      confirmLabel: "Delete document",
    });
    if (!confirmed) return;
    try {
      await api(`/v1/documents/${encodeURIComponent(doc.document_id)}`, { method: "DELETE" });
    } catch (error) {
      $("upload-error").textContent = error.message;
      return;
    }
    this.streams.get(doc.document_id)?.();
    this.streams.delete(doc.document_id);
    announce(`Deleted ${doc.title}.`);
    await this.refresh();
  }
}
