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

/** The `@word` being typed just before the caret, or null. */
function mentionAtCaret(textarea) {
  const before = textarea.value.slice(0, textarea.selectionStart);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  return match ? { prefix: match[2], start: before.length - match[2].length - 1 } : null;
}

/**
 * What a pick puts in the message. A document goes in by its title as written, spaces kept: that is
 * the name the resolver takes out of the question for a tagged document (the API's `insert_text`
 * drops the spaces, which leaves a multi-word title in the question as an unknown name).
 */
function mentionText(suggestion) {
  return suggestion.kind === "document" ? `@${suggestion.label}` : suggestion.insert_text;
}

/** Autocomplete on a textarea (role combobox) with a listbox; remembers the suggestions picked. */
export class MentionAutocomplete {
  constructor(textarea, listbox) {
    this.textarea = textarea;
    this.listbox = listbox;
    this.picked = [];
    this.suggestions = [];
    this.active = -1;
    this.timer = null;
    this.query = 0;
    textarea.addEventListener("input", () => this.schedule());
    textarea.addEventListener("blur", () => setTimeout(() => this.hide(), 150));
  }

  get open() {
    return !this.listbox.hidden;
  }

  /** Handle a key of the textarea; true when the autocomplete used it. */
  handleKey(event) {
    if (!this.open || !this.suggestions.length) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.highlight((this.active + step + this.suggestions.length) % this.suggestions.length);
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
    const at = mentionAtCaret(this.textarea);
    if (!at) {
      this.hide();
      return;
    }
    this.timer = setTimeout(() => this.lookUp(at.prefix), DEBOUNCE_MS);
  }

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
          el("span", { class: `mention-kind kind-${suggestion.kind}`, text: labels[suggestion.kind] ?? suggestion.kind }),
          el("span", { class: "mention-label", text: suggestion.label }),
          el("span", { class: "mention-detail", text: suggestion.detail }),
        ),
      ),
    );
    this.listbox.hidden = false;
    this.textarea.setAttribute("aria-expanded", "true");
    this.highlight(0);
  }

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

  /** Replace the `@prefix` being typed with the suggestion's text, and remember the pick. */
  choose(suggestion) {
    const at = mentionAtCaret(this.textarea);
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

  /** The structured mentions of `text`: the picks whose text is still in it. */
  mentionsFor(text) {
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
