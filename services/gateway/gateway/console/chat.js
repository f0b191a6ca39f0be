// @ts-check
// The chat panel: history, the message box, and a request's live events (PalReasoning steps,
// streamed tokens) until its terminal one, PalAssist questions handed to the slot above the message
// box, and a reviewer's answer to an escalated question arriving while the conversation is open.

import { api, follow } from "./api.js";
import { renderAnswer, renderNotice, renderReasoning, renderStored, renderUserMessage } from "./answer.js";
import { announce, byId, displayTitle, el, fill, newKey } from "./dom.js";
import { MentionAutocomplete } from "./mentions.js";
import { PalAssist } from "./palassist.js";

/** @typedef {import("./types.js").InterruptEvent} InterruptEvent */
/** @typedef {import("./types.js").ResponseEvent} ResponseEvent */
/** @typedef {import("./types.js").StoredMessage} StoredMessage */
/** @typedef {import("./answer.js").ReasoningStep} ReasoningStep */
/** @typedef {import("./answer.js").CiteHandler} CiteHandler */
/** @typedef {{ title: string, version: string, doc_type: string }} LibraryDocument */

const CHAT_EVENTS = ["status", "token", "interrupt", "response", "error", "escalation"];

/**
 * The request of the history's last turn when that turn is the user's: every way a request ends (an
 * answer, an error, a question, an escalation) is stored as a later turn. A pending question is
 * answered with its buttons, not followed.
 * @param {{ pending_interrupt: InterruptEvent | null, messages: StoredMessage[] }} detail
 */
function unansweredRequest(detail) {
  if (detail.pending_interrupt) return null;
  const last = detail.messages.at(-1);
  return last?.role === "user" ? last.request_id : null;
}

/**
 * Whether a ticket of this history still waits for its reviewer.
 * @param {StoredMessage[]} messages
 */
function awaitsReviewer(messages) {
  const answered = new Set(messages.map((m) => (m.metadata?.answered_by === "reviewer" ? m.metadata.escalation_id : null)));
  return messages.some((m) => m.metadata?.kind === "escalation" && !answered.has(m.metadata.escalation_id));
}

/**
 * The library's documents a status line names ("Found 2 documents: A (2024), B (v3)"), in its order.
 * @param {string} message
 * @param {LibraryDocument[]} library
 */
function documentsNamed(message, library) {
  return library
    .map((doc) => ({ doc, at: message.indexOf(displayTitle(doc)) }))
    .filter((found) => found.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((found) => found.doc);
}

/** One conversation at a time; at most one request followed at a time. */
export class Chat {
  /**
   * @param {{ onChanged: () => void, onCite: CiteHandler, library: () => LibraryDocument[] }} options
   */
  constructor({ onChanged, onCite, library }) {
    this.onChanged = onChanged;
    this.onCite = onCite;
    this.library = library;
    /** @type {string | null} */
    this.conversationId = null;
    /** @type {string | null} */
    this.eventsUrl = null;
    /** @type {(() => void) | null} */
    this.stopStream = null;
    /** @type {(() => void) | null} */
    this.stopWatch = null;
    /** The request being followed: its live item, reasoning steps and streamed text. */
    this.live = null;
    /** The message being sent: its text and the one Idempotency-Key every retry of it reuses. */
    this.draft = null;
    this.mentions = new MentionAutocomplete(byId("composer-text"), byId("mention-list"));
    this.palAssist = new PalAssist({
      conversationId: () => this.conversationId,
      enable: (enabled) => this.enable(enabled),
      addToThread: (item) => this.add(item),
      onAccepted: (accepted) => this.followRequest(accepted),
    });
    byId("composer").onsubmit = (/** @type {Event} */ event) => {
      event.preventDefault();
      this.send();
    };
    byId("composer-text").onkeydown = (/** @type {KeyboardEvent} */ event) => {
      if (this.mentions.handleKey(event)) return;
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    };
  }

  /** Stop following the current request. */
  close() {
    this.stopStream?.();
    this.stopStream = null;
  }

  /** Stop everything this conversation follows. */
  leave() {
    this.close();
    this.stopWatch?.();
    this.stopWatch = null;
    this.live = null;
    this.palAssist.hide();
  }

  clear() {
    this.leave();
    this.conversationId = null;
    this.setTitle("No conversation selected");
    fill(byId("messages"));
    this.setStatus("");
    this.enable(false);
  }

  /** @param {string} title */
  setTitle(title) {
    byId("chat-title").textContent = title;
  }

  /** @param {string} text */
  setStatus(text) {
    byId("chat-status").textContent = text;
  }

  /** @param {boolean} enabled */
  enable(enabled) {
    byId("composer-text").disabled = !enabled;
    byId("send").disabled = !enabled;
  }

  /**
   * Show a conversation with its history, and its pending PalAssist question if any.
   * @param {string} conversationId
   */
  async open(conversationId) {
    this.leave();
    this.conversationId = conversationId;
    this.draft = null;
    this.mentions.reset();
    const detail = await api(`/v1/conversations/${encodeURIComponent(conversationId)}`);
    if (this.conversationId !== conversationId) return;
    this.eventsUrl = detail.events_url;
    this.setTitle(detail.title);
    const pendingId = detail.pending_interrupt?.interrupt_id;
    // The open question is shown once, above the message box, rather than also as a past notice.
    const past = detail.messages.filter((/** @type {StoredMessage} */ m) => !pendingId || m.metadata?.interrupt?.interrupt_id !== pendingId);
    const items = past.map((/** @type {StoredMessage} */ m) => renderStored(m, this.onCite));
    if (!items.length) items.push(renderNotice("Ask a question about your documents to begin.", "notice placeholder"));
    fill(byId("messages"), items);
    this.setStatus("");
    this.enable(true);
    if (detail.pending_interrupt) this.palAssist.show(detail.pending_interrupt);
    if (awaitsReviewer(detail.messages)) this.watchReviewer();
    const running = unansweredRequest(detail);
    if (running) {
      // Sent before this page was loaded and still running: its stream, replayed from its first
      // event, shows what it has said so far and the rest as it comes.
      const eventsUrl = `${detail.events_url}?request_id=${encodeURIComponent(running)}`;
      this.followRequest({ request_id: running, events_url: eventsUrl }, "Still working on your last message…");
    }
    this.scrollToEnd();
  }

  /** @param {HTMLElement} item @param {{ focus?: boolean }} [options] */
  add(item, { focus = false } = {}) {
    byId("messages").querySelector(".placeholder")?.remove();
    byId("messages").append(item);
    this.scrollToEnd();
    if (focus) item.focus({ preventScroll: true });
    return item;
  }

  scrollToEnd() {
    const list = byId("messages");
    list.scrollTop = list.scrollHeight;
  }

  async send() {
    const textarea = byId("composer-text");
    const text = textarea.value.trim();
    if (!text || !this.conversationId || byId("send").disabled) return;
    byId("composer-error").textContent = "";
    // One key per composed message: a retry after a lost answer is the same request, not a second one.
    if (this.draft?.text !== text) this.draft = { text, key: newKey() };
    const mentions = this.mentions.mentionsFor(text);
    this.enable(false);
    let accepted;
    try {
      accepted = await api(`/v1/conversations/${encodeURIComponent(this.conversationId)}/messages`, {
        method: "POST",
        json: { text, mentions },
        headers: { "Idempotency-Key": this.draft.key },
      });
    } catch (error) {
      byId("composer-error").textContent = `${error.message} Send again to retry: it will not be sent twice.`;
      this.enable(true);
      return;
    }
    this.draft = null;
    textarea.value = "";
    this.mentions.reset();
    this.add(renderUserMessage(text));
    this.followRequest(accepted);
    this.onChanged(); // the first message titles the conversation
  }

  /**
   * Follow a request's events (the accepted answer of a message, a resume or a cancel).
   * @param {{ request_id: string, events_url: string }} accepted
   */
  followRequest(accepted, status = "Sent; waiting for PolicyPal…") {
    this.close();
    this.enable(false);
    this.setStatus(status);
    this.live = { requestId: accepted.request_id, item: null, steps: [], text: null, next: 0 };
    const conversationId = this.conversationId;
    this.stopStream = follow(
      accepted.events_url,
      CHAT_EVENTS,
      (type, event) => {
        if (event.request_id !== accepted.request_id || conversationId !== this.conversationId) return;
        this.onEvent(type, event);
      },
      (message) => {
        this.setStatus("");
        this.add(renderNotice(message, "error"), { focus: true });
        this.enable(true);
      },
    );
  }

  /** @param {string} type @param {any} event */
  onEvent(type, event) {
    if (type === "status") this.addStep(event);
    else if (type === "token") this.appendToken(event);
    else this.finish(type, event);
  }

  /** The live answer's item: its PalReasoning, then the streamed text. */
  liveItem() {
    if (!this.live.item) {
      this.live.item = this.add(
        el("li", { class: "message assistant working", attrs: { "aria-busy": "true" } }, el("p", { class: "message-role", text: "PolicyPal" })),
      );
    }
    return this.live.item;
  }

  /** @param {import("./types.js").StatusEvent} event */
  addStep(event) {
    this.setStatus(event.message);
    const documents = event.stage === "docs_found" ? documentsNamed(event.message, this.library()) : [];
    this.live.steps.push({ stage: event.stage, message: event.message, documents });
    const item = this.liveItem();
    const reasoning = renderReasoning(this.live.steps, { open: true });
    const shown = item.querySelector(".reasoning");
    if (shown) shown.replaceWith(reasoning);
    else item.querySelector(".message-role").after(reasoning);
    this.scrollToEnd();
  }

  /**
   * Tokens arrive in order by index; a replayed one (same index) is not shown twice, and a restart
   * from 0 starts the text over.
   * @param {import("./types.js").TokenEvent} event
   */
  appendToken(event) {
    const item = this.liveItem();
    if (!this.live.text) {
      this.live.text = el("div", { class: "answer-text plain" });
      item.classList.add("streaming");
      item.append(this.live.text);
      this.setStatus("Writing the answer…");
    }
    if (event.index === 0 && this.live.next > 0) {
      this.live.text.textContent = "";
      this.live.next = 0;
    }
    if (event.index < this.live.next) return;
    this.live.next = event.index + 1;
    this.live.text.append(event.text);
    this.scrollToEnd();
  }

  /** @param {string} type @param {any} event */
  finish(type, event) {
    const shown = this.live?.item;
    const steps = this.live?.steps ?? [];
    this.close();
    this.live = null;
    this.setStatus("");
    let item = null;
    if (type === "response") {
      item = renderAnswer(event, { onCite: this.onCite, reasoning: steps });
      announce("The answer is ready.");
    } else if (type === "interrupt") {
      shown?.remove();
      this.palAssist.show(event);
      announce("PalAssist has a question.");
      this.onChanged();
      return;
    } else if (type === "escalation") {
      item = renderNotice(event.message, "notice escalation");
      this.watchReviewer();
    } else {
      item = renderNotice(event.message, event.code === "cancelled" ? "notice" : "error");
    }
    if (shown) shown.replaceWith(item);
    else this.add(item);
    this.scrollToEnd();
    // The focus goes to the new message, so a screen reader reads it; the skip link leads back to
    // the message box.
    this.enable(true);
    item.focus({ preventScroll: true });
    this.onChanged();
  }

  /**
   * Follow the conversation for a reviewer's answer: it is published on the thread as a response to
   * the escalated request, after that request's stream has ended.
   */
  watchReviewer() {
    if (this.stopWatch || !this.eventsUrl) return;
    const conversationId = this.conversationId;
    this.stopWatch = follow(this.eventsUrl, ["response"], (_type, event) => {
      if (conversationId !== this.conversationId || event.answered_by !== "reviewer") return;
      const id = event.message_id;
      if (byId("messages").querySelector(`[data-message-id="${CSS.escape(id)}"]`)) return; // replayed
      const item = this.add(renderAnswer(event, { onCite: this.onCite }));
      item.focus({ preventScroll: true });
      announce("A reviewer answered your question.");
      this.onChanged();
    });
  }
}
