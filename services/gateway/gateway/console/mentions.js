// @ts-check
// @-mention autocomplete for the message box, from GET /v1/mentions; the picks become `mentions`.

import { api } from "./api.js";
import { el, fill } from "./dom.js";

const CATEGORIES = [
  ["actions", "Action"],
  ["sets", "Set"],
  ["documents", "Document"],
  ["web", "Web"],
];
const DEBOUNCE_MS = 120;

const MAX_PREFIX_CHARS = 60;
const MAX_PREFIX_WORDS = 5;

/**
 * The `@prefix` being typed just before the caret, or null. A prefix may run over several words
 * ("@Prudential Rul") until it is long, crosses a line, or already begins with a picked mention.
 * @param {HTMLTextAreaElement} textarea
 * @param {string[]} pickedTexts
 * @returns {{ prefix: string, start: number } | null}
 */
function mentionAtCaret(textarea, pickedTexts = []) {
  const before = textarea.value.slice(0, textarea.selectionStart);
  const match = /(^|\s)@([^@\n]*)$/.exec(before);
  if (!match) return null;
  const prefix = match[2];
  const start = before.length - prefix.length - 1;
  if (prefix.length > MAX_PREFIX_CHARS || prefix.split(/\s+/).filter(Boolean).length > MAX_PREFIX_WORDS) return null;
  if (/^\s/.test(prefix)) return null;
  const typed = `@${prefix}`;
  // Past a mention already picked, the words that follow are the message, not a longer name.
  if (pickedTexts.some((text) => typed.startsWith(`${text} `))) return null;
  return { prefix, start };
}

/**
 * What a pick puts in the message. A document goes in by its title as written, spaces kept: that is
 * the name the resolver takes out of the question for a tagged document (the API's `insert_text`
 * drops the spaces, which leaves a multi-word title in the question as an unknown name).
 */
/** @param {any} suggestion @returns {string} */
function mentionText(suggestion) {
  return suggestion.kind === "document" ? `@${suggestion.label}` : suggestion.insert_text;
}

/** Autocomplete on a textarea (role combobox) with a listbox; remembers the suggestions picked. */
export class MentionAutocomplete {
  /** @param {HTMLTextAreaElement} textarea @param {HTMLElement} listbox */
  constructor(textarea, listbox) {
    this.textarea = textarea;
    this.listbox = listbox;
    /** @type {any[]} */
    this.picked = [];
    /** @type {any[]} */
    this.suggestions = [];
    this.active = -1;
    /** @type {number | undefined} */
    this.timer = undefined;
    this.query = 0;
    textarea.addEventListener("input", () => this.schedule());
    textarea.addEventListener("blur", () => setTimeout(() => this.hide(), 150));
  }

  get open() {
    return !this.listbox.hidden;
  }

  /** The texts of the mentions picked so far. */
  pickedTexts() {
    return this.picked.map(mentionText);
  }

  /**
   * Handle a key of the textarea; true when the autocomplete used it.
   * @param {KeyboardEvent} event
   */
  handleKey(event) {
    if (!this.open || !this.suggestions.length) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.highlight((this.active + step + this.suggestions.length) % this.suggestions.length);
    } else if (event.key === "Home" || event.key === "End") {
      this.highlight(event.key === "Home" ? 0 : this.suggestions.length - 1);
    } else if (event.key === "Enter" || event.key === "Tab") {
      this.choose(this.suggestions[Math.max(this.active, 0)]);
    } else if (event.key === "Escape") {
      this.hide();
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  schedule() {
    clearTimeout(this.timer);
    const at = mentionAtCaret(this.textarea, this.pickedTexts());
    if (!at) {
      this.hide();
      return;
    }
    this.timer = window.setTimeout(() => this.lookUp(at.prefix), DEBOUNCE_MS);
  }

  /** @param {string} prefix */
  async lookUp(prefix) {
    const query = ++this.query;
    let found;
    try {
      found = await api(`/v1/mentions?prefix=${encodeURIComponent(prefix)}&limit=6`);
    } catch {
      this.hide();
      return;
    }
    if (query !== this.query) return; // a newer keystroke asked again
    this.suggestions = CATEGORIES.flatMap(([key]) => found[key] ?? []);
    this.render();
  }

  render() {
    if (!this.suggestions.length) {
      this.hide();
      return;
    }
    const labels = Object.fromEntries(CATEGORIES.map(([key, label]) => [key.replace(/s$/, ""), label]));
    fill(
      this.listbox,
      this.suggestions.map((suggestion, index) =>
        el(
          "li",
          {
            id: `mention-option-${index}`,
            class: "mention-option",
            attrs: { role: "option", "aria-selected": "false" },
            on: {
              mousedown: (event) => {
                event.preventDefault(); // keep the focus in the textarea
                this.choose(suggestion);
              },
            },
          },
          el(
            "span",
            { class: `mention-kind kind-${suggestion.kind}` },
            suggestion.colour ? el("span", { class: `swatch set-${suggestion.colour}`, attrs: { "aria-hidden": "true" } }) : null,
            labels[suggestion.kind] ?? suggestion.kind,
          ),
          el("span", { class: "mention-label", text: suggestion.label }),
          el("span", { class: "mention-detail", text: suggestion.detail }),
        ),
      ),
    );
    this.listbox.hidden = false;
    this.textarea.setAttribute("aria-expanded", "true");
    this.highlight(0);
  }

  /** @param {number} index */
  highlight(index) {
    this.active = index;
    this.listbox.querySelectorAll("[role=option]").forEach((option, i) => {
      option.setAttribute("aria-selected", String(i === index));
      if (i === index) option.scrollIntoView({ block: "nearest" });
    });
    this.textarea.setAttribute("aria-activedescendant", `mention-option-${index}`);
  }

  hide() {
    this.listbox.hidden = true;
    this.suggestions = [];
    this.active = -1;
    this.textarea.setAttribute("aria-expanded", "false");
    this.textarea.removeAttribute("aria-activedescendant");
  }

  /**
   * Replace the `@prefix` being typed with the suggestion's text, and remember the pick.
   * @param {any} suggestion
   */
  choose(suggestion) {
    const at = mentionAtCaret(this.textarea, this.pickedTexts());
    if (at) {
      const value = this.textarea.value;
      const caret = this.textarea.selectionStart;
      const inserted = `${mentionText(suggestion)} `;
      this.textarea.value = value.slice(0, at.start) + inserted + value.slice(caret);
      const position = at.start + inserted.length;
      this.textarea.setSelectionRange(position, position);
    }
    this.picked.push(suggestion);
    this.hide();
    this.textarea.focus();
  }

  /**
   * The structured mentions of `text`: the picks whose text is still in it.
   * @param {string} text
   */
  mentionsFor(text) {
    /** @type {{ action: string | null, documents: string[], web: boolean }} */
    const mentions = { action: null, documents: [], web: false };
    for (const pick of this.picked) {
      if (!text.includes(mentionText(pick))) continue;
      if (pick.action) mentions.action = pick.action;
      if (pick.web) mentions.web = true;
      for (const id of pick.document_ids ?? []) {
        if (!mentions.documents.includes(id)) mentions.documents.push(id);
      }
    }
    return mentions;
  }

  reset() {
    this.picked = [];
    this.hide();
  }
}
