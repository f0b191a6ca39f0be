// @ts-check
// The upload dialog: a new document (file, title, version, type, set) or a new version of one
// (file and version). The set field suggests the tenant's sets; a new name gets a chosen colour.

import { api } from "./api.js";
import { byId, displayTitle, el, fill } from "./dom.js";

/** @typedef {import("./types.js").DocumentView} DocumentView */
/** @typedef {import("./types.js").UploadResult} UploadResult */
/** @typedef {{ name: string, colour: string }} SetSummary */

/** The dialog; `onUploaded(result)` follows what was uploaded. */
export class UploadDialog {
  /** @param {{ onUploaded: (result: UploadResult) => Promise<void> }} options */
  constructor({ onUploaded }) {
    this.onUploaded = onUploaded;
    /** @type {DocumentView | null} the document a new version is for */
    this.previous = null;
    /** @type {SetSummary[]} */
    this.sets = [];
    const dialog = byId("upload-dialog");
    byId("upload-cancel").onclick = () => dialog.close();
    byId("upload-set").addEventListener("input", () => this.showColourChoice());
    byId("upload-form").onsubmit = (/** @type {Event} */ event) => {
      // Handled here: the page's CSP has form-action 'none'.
      event.preventDefault();
      this.submit().catch((error) => {
        byId("upload-error").textContent = error.message;
        byId("upload-submit").disabled = false;
      });
    };
  }

  /** Load the tenant's sets and the palette for the set field. */
  async loadSets() {
    const list = await api("/v1/sets");
    this.sets = list.sets;
    fill(byId("set-names"), list.sets.map((/** @type {SetSummary} */ s) => el("option", { value: s.name })));
    fill(
      byId("upload-set-colour"),
      list.palette.map((/** @type {{ name: string }} */ colour) => el("option", { value: colour.name, text: colour.name })),
    );
  }

  /**
   * Whether `name` names a set that exists (names differing in case or spacing are one set).
   * @param {string} name
   */
  known(name) {
    const folded = name.split(/\s+/).filter(Boolean).join(" ").toLowerCase();
    return this.sets.some((s) => s.name.split(/\s+/).filter(Boolean).join(" ").toLowerCase() === folded);
  }

  showColourChoice() {
    const name = byId("upload-set").value.trim();
    byId("new-set").hidden = !name || this.known(name);
  }

  /**
   * Open the dialog: for a new document, or (with `previous`) for a new version of that one.
   * @param {DocumentView | null} [previous]
   */
  async open(previous = null) {
    this.previous = previous;
    const form = byId("upload-form");
    form.reset();
    byId("upload-error").textContent = "";
    byId("upload-submit").disabled = false;
    byId("upload-dialog-title").textContent = previous ? `New version of ${displayTitle(previous)}` : "Upload a document";
    byId("upload-dialog-text").textContent = previous
      ? `Keeps the title, type and set; ${displayTitle(previous)} stays in the library as it is.`
      : "";
    byId("upload-describe").hidden = Boolean(previous);
    byId("upload-kind").hidden = Boolean(previous);
    byId("upload-title").required = !previous;
    byId("new-set").hidden = true;
    byId("upload-dialog").showModal();
    byId("upload-file").focus();
    if (!previous) await this.loadSets().catch(() => {}); // suggestions only: uploading works without
  }

  async submit() {
    byId("upload-error").textContent = "";
    byId("upload-submit").disabled = true;
    const data = new FormData(byId("upload-form"));
    /** @type {UploadResult} */
    let result;
    if (this.previous) {
      const version = new FormData();
      version.set("file", /** @type {File} */ (data.get("file")));
      version.set("version", String(data.get("version") ?? ""));
      result = await api(`/v1/documents/${encodeURIComponent(this.previous.document_id)}/versions`, { method: "POST", form: version });
    } else {
      const setName = String(data.get("set_name") ?? "").trim();
      if (!setName) data.delete("set_name");
      else if (!this.known(setName)) {
        // Created first with the chosen colour; the upload then joins it by name.
        await api("/v1/sets", { method: "POST", json: { name: setName, colour: byId("upload-set-colour").value } }).catch((error) => {
          if (error.status !== 409) throw error; // someone created it meanwhile: join theirs
        });
      }
      result = await api("/v1/documents", { method: "POST", form: data });
    }
    byId("upload-dialog").close();
    await this.onUploaded(result);
  }
}
