// The chat panel: history, the message box, and a request's live events until its terminal one.

import { api, follow } from "./api.js";
import { renderAnswer, renderInterrupt, renderNotice, renderStored, renderUserMessage } from "./answer.js";
import { announce, el, fill } from "./dom.js";
import { MentionAutocomplete } from "./mentions.js";

const CHAT_EVENTS = ["status", "token", "interrupt", "response", "error", "escalation"];
const $ = (id) => document.getElementById(id);

/**
 * The request of the history's last turn when that turn is the user's: every way a request ends (an
 * answer, an error, a question, an escalation) is stored as a later turn. A pending question is
 * answered with its buttons, not followed.
 */
function unansweredRequest(detail) {
  if (detail.pending_interrupt) return null;
  const last = detail.messages.at(-1);
  return last?.role === "user" ? last.request_id : null;
}

/** One conversation at a time; at most one request followed at a time. */
export class Chat {
  constructor({ onChanged }) {
    this.onChanged = onChanged;
    this.conversationId = null;
    this.stopStream = null;
    this.streaming = null; // the answer being streamed: { item, text, tokens }
    this.mentions = new MentionAutocomplete($("composer-text"), $("mention-list"));
    $("composer").onsubmit = (event) => {
      event.preventDefault();
      this.send();
    };
    $("composer-text").onkeydown = (event) => {
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
    this.streaming = null;
  }

  clear() {
    this.close();
    this.conversationId = null;
    this.setTitle("No conversation selected");
    fill($("messages"));
    this.setStatus("");
    this.enable(false);
  }

  setTitle(title) {
    $("chat-title").textContent = title;
  }

  setStatus(text) {
    $("chat-status").textContent = text;
  }

  enable(enabled) {
    $("composer-text").disabled = !enabled;
    $("send").disabled = !enabled;
  }

  /** Show a conversation with its history, and its pending PalAssist question if any. */
  async open(conversationId) {
    this.close();
    this.conversationId = conversationId;
    this.mentions.reset();
    const detail = await api(`/v1/conversations/${encodeURIComponent(conversationId)}`);
    if (this.conversationId !== conversationId) return;
    this.setTitle(detail.title);
    const pendingId = detail.pending_interrupt?.interrupt_id;
    // The open question is shown once, with its buttons, rather than also as a past notice.
    const past = detail.messages.filter((m) => !pendingId || m.metadata?.interrupt?.interrupt_id !== pendingId);
    const items = past.map(renderStored);
    if (!items.length) items.push(renderNotice("Ask a question about your documents to begin.", "notice placeholder"));
    fill($("messages"), items);
    this.setStatus("");
    this.enable(true);
    if (detail.pending_interrupt) this.showInterrupt(detail.pending_interrupt);
    const running = unansweredRequest(detail);
    if (running) {
      // Sent before this page was loaded and still running: its stream, replayed from its first
      // event, shows what it has said so far and the rest as it comes.
      const eventsUrl = `${detail.events_url}?request_id=${encodeURIComponent(running)}`;
      this.followRequest({ request_id: running, events_url: eventsUrl }, "Still working on your last message…");
    }
    this.scrollToEnd();
  }

  add(item, { focus = false } = {}) {
    $("messages").querySelector(".placeholder")?.remove();
    $("messages").append(item);
    this.scrollToEnd();
    if (focus) item.focus({ preventScroll: true });
    return item;
  }

  scrollToEnd() {
    const list = $("messages");
    list.scrollTop = list.scrollHeight;
  }

  async send() {
    const textarea = $("composer-text");
    const text = textarea.value.trim();
    if (!text || !this.conversationId || $("send").disabled) return;
    $("composer-error").textContent = "";
    const mentions = this.mentions.mentionsFor(text);
    this.enable(false);
    let accepted;
    try {
      accepted = await api(`/v1/conversations/${encodeURIComponent(this.conversationId)}/messages`, {
        method: "POST",
        json: { text, mentions },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      });
    } catch (error) {
      $("composer-error").textContent = error.message;
      this.enable(true);
      return;
    }
    textarea.value = "";
    this.mentions.reset();
    this.add(renderUserMessage(text));
    this.followRequest(accepted);
  }

  /** Follow a request's events (the accepted answer of a message, a resume or a cancel). */
  followRequest(accepted, status = "Sent; waiting for PolicyPal…") {
    this.close();
    this.enable(false);
    this.setStatus(status);
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

  onEvent(type, event) {
    if (type === "status") {
      this.setStatus(event.message);
    } else if (type === "token") {
      this.appendToken(event);
    } else {
      this.finish(type, event);
    }
  }

  /** Tokens arrive in order by index; a replayed one (same index) is not shown twice. */
  appendToken(event) {
    if (!this.streaming) {
      const text = el("div", { class: "answer-text" });
      const item = this.add(
        el(
          "li",
          { class: "message assistant streaming", attrs: { "aria-busy": "true" } },
          el("p", { class: "message-role", text: "PolicyPal" }),
          text,
        ),
      );
      this.streaming = { item, text, next: 0 };
      this.setStatus("Writing the answer…");
    }
    if (event.index < this.streaming.next) return;
    this.streaming.next = event.index + 1;
    this.streaming.text.append(event.text);
    this.scrollToEnd();
  }

  finish(type, event) {
    const streamed = this.streaming?.item;
    this.close();
    this.setStatus("");
    let item;
    if (type === "response") {
      item = renderAnswer(event);
      announce("The answer is ready.");
    } else if (type === "interrupt") {
      item = this.interruptItem(event);
      announce("PalAssist has a question.");
    } else if (type === "escalation") {
      item = renderNotice(event.message, "notice");
    } else {
      item = renderNotice(event.message, event.code === "cancelled" ? "notice" : "error");
    }
    if (streamed) streamed.replaceWith(item);
    else this.add(item);
    this.scrollToEnd();
    // A question waits for its answer; otherwise the user can write again. The focus goes to the new
    // message, so a screen reader reads it; the skip link leads back to the message box.
    this.enable(type !== "interrupt");
    item.focus({ preventScroll: true });
    this.onChanged();
  }

  showInterrupt(interrupt) {
    this.add(this.interruptItem(interrupt), { focus: true });
    this.enable(false);
  }

  interruptItem(interrupt) {
    const item = renderInterrupt(interrupt, {
      onAnswer: (value) => this.answer(item, interrupt, value),
      onCancel: () => this.cancel(item, interrupt),
    });
    return item;
  }

  async answer(item, interrupt, value) {
    const path = `/v1/conversations/${encodeURIComponent(this.conversationId)}/resume`;
    const body = { interrupt_id: interrupt.interrupt_id, resume_value: { type: interrupt.interrupt_type, value } };
    const chosen = (interrupt.options ?? []).find((option) => option.id === value);
    await this.settle(item, path, body, `Answered: ${chosen ? chosen.label : value}`);
  }

  async cancel(item, interrupt) {
    const path = `/v1/conversations/${encodeURIComponent(this.conversationId)}/cancel`;
    await this.settle(item, path, { interrupt_id: interrupt.interrupt_id }, "Cancelled.");
  }

  /** Send the answer to a question; the buttons go once it is accepted, and its events follow. */
  async settle(item, path, body, done) {
    item.querySelectorAll("button, input").forEach((control) => {
      control.disabled = true;
    });
    let accepted;
    try {
      accepted = await api(path, {
        method: "POST",
        json: body,
        headers: { "Idempotency-Key": crypto.randomUUID() },
      });
    } catch (error) {
      item.querySelectorAll("button, input").forEach((control) => {
        control.disabled = false;
      });
      $("composer-error").textContent = error.message;
      return;
    }
    item.querySelectorAll(".interrupt-options, .interrupt-text, .link-button").forEach((n) => n.remove());
    item.append(el("p", { class: "answer-meta", text: done }));
    this.followRequest(accepted);
  }
}
