// @ts-check
// PalAssist above the message box: the conversation's one pending question, answered with its
// buttons or a typed answer, or cancelled; once accepted it moves into the thread with the answer.

import { api } from "./api.js";
import { renderInterrupt } from "./answer.js";
import { byId, el, fill, newKey } from "./dom.js";

/** @typedef {import("./types.js").InterruptEvent} InterruptEvent */
/** @typedef {{ request_id: string, events_url: string }} Accepted */

/** The PalAssist slot of the chat panel. */
export class PalAssist {
  /**
   * @param {{ conversationId: () => string | null, enable: (enabled: boolean) => void,
   *   addToThread: (item: HTMLElement) => void, onAccepted: (accepted: Accepted) => void }} chat
   */
  constructor(chat) {
    this.chat = chat;
    /** One key per answer, so sending the same answer again after a failure is one request. */
    this.sent = { body: "", key: "" };
  }

  hide() {
    fill(byId("palassist")).hidden = true;
  }

  /**
   * Show the pending question; the message box waits for its answer.
   * @param {InterruptEvent} interrupt
   */
  show(interrupt) {
    const card = renderInterrupt(interrupt, {
      onAnswer: (value) => this.answer(card, interrupt, value),
      onCancel: () => this.cancel(card, interrupt),
    });
    fill(byId("palassist"), card).hidden = false;
    this.chat.enable(false);
    card.focus({ preventScroll: true });
  }

  conversation() {
    return encodeURIComponent(String(this.chat.conversationId()));
  }

  /** @param {HTMLElement} card @param {InterruptEvent} interrupt @param {string} value */
  async answer(card, interrupt, value) {
    const body = { interrupt_id: interrupt.interrupt_id, resume_value: { type: interrupt.interrupt_type, value } };
    const chosen = (interrupt.options ?? []).find((option) => option.id === value);
    await this.settle(card, interrupt, `/v1/conversations/${this.conversation()}/resume`, body, `Answered: ${chosen ? chosen.label : value}`);
  }

  /** @param {HTMLElement} card @param {InterruptEvent} interrupt */
  async cancel(card, interrupt) {
    await this.settle(card, interrupt, `/v1/conversations/${this.conversation()}/cancel`, { interrupt_id: interrupt.interrupt_id }, "Cancelled.");
  }

  /**
   * Send the answer to a question; once accepted, the question moves into the thread with the
   * answer, and its events follow.
   * @param {HTMLElement} card @param {InterruptEvent} interrupt @param {string} path @param {object} body
   * @param {string} done
   */
  async settle(card, interrupt, path, body, done) {
    const controls = /** @type {NodeListOf<HTMLButtonElement>} */ (card.querySelectorAll("button, input"));
    controls.forEach((control) => (control.disabled = true));
    const sending = `${path} ${JSON.stringify(body)}`;
    if (this.sent.body !== sending) this.sent = { body: sending, key: newKey() };
    let accepted;
    try {
      accepted = await api(path, { method: "POST", json: body, headers: { "Idempotency-Key": this.sent.key } });
    } catch (error) {
      controls.forEach((control) => (control.disabled = false));
      byId("composer-error").textContent = error.message;
      return;
    }
    this.hide();
    this.chat.addToThread(
      el(
        "li",
        { class: "message system asked", tabIndex: -1, attrs: { "data-testid": "interrupt-answered" } },
        el("p", { class: "message-role", text: "PalAssist" }),
        el("p", { text: interrupt.message }),
        el("p", { class: "answer-meta", text: done }),
      ),
    );
    this.chat.onAccepted(accepted);
  }
}
