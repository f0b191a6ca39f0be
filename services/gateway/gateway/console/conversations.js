// @ts-check
// The Chats tab: the conversations (title, preview, time); create, rename, delete, select.

import { api } from "./api.js";
import { askText, confirmAction } from "./dialog.js";
import { announce, byId as $, el, fill, when } from "./dom.js";

/** @typedef {{ conversation_id: string, title: string, created_at: string, last_message_at: string | null,
 *   last_message_preview: string | null }} ConversationSummary */

/** The list of the caller's conversations; the selected one is shown by the chat panel. */
export class Conversations {
  /** @param {{ onSelect: (id: string) => Promise<void>, chat: import("./chat.js").Chat }} options */
  constructor({ onSelect, chat }) {
    this.onSelect = onSelect;
    this.chat = chat;
    /** @type {string | null} */
    this.selected = null;
    /** @type {ConversationSummary[]} */
    this.items = [];
    $("rename-conversation").onclick = () => this.guard(() => this.rename());
    $("delete-conversation").onclick = () => this.guard(() => this.remove());
  }

  /** @param {() => Promise<void>} action */
  guard(action) {
    $("conversations-error").textContent = "";
    action().catch((error) => {
      $("conversations-error").textContent = error.message;
    });
  }

  /**
   * Reload the list; with `selectFirst`, open the newest conversation when none is open.
   * @param {{ selectFirst?: boolean }} [options]
   */
  async refresh({ selectFirst = false } = {}) {
    const list = await api("/v1/conversations");
    this.items = list.conversations;
    this.render();
    // The open conversation may have been titled by its first message meanwhile.
    const open = this.items.find((item) => item.conversation_id === this.selected);
    if (open) this.chat.setTitle(open.title);
    if (selectFirst && !this.selected && this.items.length) await this.select(this.items[0].conversation_id);
  }

  render() {
    const list = $("conversation-list");
    if (!this.items.length) {
      fill(list, el("li", { class: "empty", text: "No conversations yet: start one with +." }));
      return;
    }
    fill(
      list,
      this.items.map((item) => {
        const current = item.conversation_id === this.selected;
        const preview = item.last_message_preview ?? "No messages yet";
        return el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              class: `conversation${current ? " current" : ""}`,
              attrs: { "aria-current": current ? "true" : null, "data-conversation-id": item.conversation_id },
              on: { click: () => this.guard(() => this.select(item.conversation_id)) },
            },
            el("span", { class: "conversation-title", text: item.title }),
            el("span", { class: "conversation-preview", text: preview }),
            el("time", {
              class: "conversation-time",
              text: when(item.last_message_at ?? item.created_at),
              attrs: { datetime: item.last_message_at ?? item.created_at },
            }),
          ),
        );
      }),
    );
  }

  /** @param {string} conversationId */
  async select(conversationId) {
    this.selected = conversationId;
    this.render();
    $("rename-conversation").disabled = false;
    $("delete-conversation").disabled = false;
    await this.onSelect(conversationId);
  }

  async create() {
    const created = await api("/v1/conversations", { method: "POST", json: {} });
    await this.refresh();
    await this.select(created.conversation_id);
    announce(`Started ${created.title}.`);
    $("composer-text").focus();
  }

  async rename() {
    const current = this.items.find((item) => item.conversation_id === this.selected);
    if (!current) return;
    const title = await askText({
      title: "Rename the conversation",
      label: "New title",
      value: current.title,
      confirmLabel: "Rename",
    });
    if (title === null) return;
    const renamed = await api(`/v1/conversations/${encodeURIComponent(current.conversation_id)}`, {
      method: "PATCH",
      json: { title },
    });
    this.chat.setTitle(renamed.title);
    await this.refresh();
    announce(`Renamed to ${renamed.title}.`);
  }

  async remove() {
    const current = this.items.find((item) => item.conversation_id === this.selected);
    if (!current) return;
    const confirmed = await confirmAction({
      title: "Delete the conversation?",
      text: `“${current.title}” and all its messages will be deleted.`,
      confirmLabel: "Delete conversation",
    });
    if (!confirmed) return;
    await api(`/v1/conversations/${encodeURIComponent(current.conversation_id)}`, { method: "DELETE" });
    this.selected = null;
    $("rename-conversation").disabled = true;
    $("delete-conversation").disabled = true;
    this.chat.clear();
    announce(`Deleted ${current.title}.`);
    // The Delete button is disabled now: the focus goes to where a next conversation starts.
    $("plus-button").focus();
    await this.refresh({ selectFirst: true });
  }
}
