// PolicyPal website widget: <script src="https://<gateway>/widget.js" data-tenant="acme" async></script>
// Plain JavaScript, no build step, no third-party requests. Its markup lives in a shadow root styled by
// a constructed stylesheet and CSSOM custom properties, so a host page's strict CSP (style-src 'self',
// no inline styles) does not block it; the host page must allow this gateway and the event origin in
// script-src and connect-src.
(() => {
  "use strict";
  const script = document.currentScript;
  if (!script || !script.dataset.tenant) return;
  const tenant = script.dataset.tenant;
  const gateway = new URL(script.src, location.href).origin;
  const TYPES = ["token", "status", "response", "error", "escalation", "interrupt"];

  const CSS = `
:host { all: initial; }
.pp { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; }
.bubble { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000; border: 0; border-radius: 28px;
  padding: 14px 18px; background: var(--pp-accent, #1f5fbf); color: var(--pp-text, #fff); font: inherit;
  font-weight: 600; cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.bubble:focus-visible, button:focus-visible, textarea:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.panel { position: fixed; right: 20px; bottom: 84px; z-index: 2147483000; width: min(380px, calc(100vw - 40px));
  height: min(540px, calc(100vh - 120px)); display: flex; flex-direction: column; background: #fff;
  border-radius: 12px; box-shadow: 0 8px 30px rgba(0,0,0,.3); overflow: hidden; }
.panel[hidden] { display: none; }
header { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px;
  background: var(--pp-accent, #1f5fbf); color: var(--pp-text, #fff); }
header h2 { margin: 0; font-size: 16px; }
header button { background: transparent; border: 0; color: inherit; font-size: 20px; cursor: pointer; }
.log { flex: 1; overflow-y: auto; padding: 12px; display: flex; flex-direction: column; gap: 8px; }
.msg { max-width: 85%; padding: 8px 11px; border-radius: 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: #e7eefb; }
.msg.assistant { align-self: flex-start; background: #f2f3f5; }
.msg.reviewer { align-self: flex-start; background: #e8f6ec; border-left: 3px solid #2e8540; }
.msg.notice { align-self: center; background: #fff6df; font-size: 14px; }
.who { display: block; font-size: 12px; font-weight: 600; color: #555d6b; margin-bottom: 2px; }
.sources { margin: 6px 0 0; padding-left: 18px; font-size: 13px; color: #3a4150; }
.status { font-size: 13px; color: #555d6b; padding: 0 12px 4px; min-height: 1.2em; }
form { display: flex; gap: 8px; padding: 10px; border-top: 1px solid #e1e4ea; }
textarea { flex: 1; resize: none; font: inherit; padding: 8px; border: 1px solid #a9b0bc; border-radius: 8px; }
form button { border: 0; border-radius: 8px; padding: 0 14px; background: var(--pp-accent, #1f5fbf);
  color: var(--pp-text, #fff); font: inherit; font-weight: 600; cursor: pointer; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

  function el(tag, props = {}, children = []) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  const host = el("div", { "data-policypal-widget": tenant });
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  root.adoptedStyleSheets = [sheet];

  const bubble = el("button", { class: "bubble", type: "button", "aria-expanded": "false", "aria-controls": "pp-panel", text: "Chat with us" });
  const title = el("h2", { id: "pp-title", text: "Questions? Ask us" });
  const close = el("button", { type: "button", "aria-label": "Close chat", text: "×" });
  const log = el("div", { class: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-labelledby": "pp-title" });
  const status = el("div", { class: "status", role: "status" });
  const input = el("textarea", { id: "pp-input", rows: "2", "aria-label": "Your question", placeholder: "Type your question…" });
  const send = el("button", { type: "submit", text: "Send" });
  const form = el("form", {}, [el("label", { for: "pp-input", class: "sr", text: "Your question" }), input, send]);
  const panel = el("section", { class: "panel", id: "pp-panel", role: "dialog", "aria-labelledby": "pp-title", hidden: "" }, [
    el("header", {}, [title, close]),
    log,
    status,
    form,
  ]);
  root.append(el("div", { class: "pp" }, [bubble, panel]));

  let session = null;
  let sessionRefused = false;
  let streamStop = null;
  let lastEventId = "";
  const streaming = new Map(); // message id -> element being streamed into

  function say(kind, text, who) {
    const node = el("div", { class: `msg ${kind}` }, [who ? el("span", { class: "who", text: who }) : null, document.createTextNode(text)]);
    log.append(node);
    log.scrollTop = log.scrollHeight;
    return node;
  }

  function showAnswer(event) {
    const reviewer = event.answered_by === "reviewer";
    const existing = streaming.get(event.message_id);
    if (existing) existing.remove();
    streaming.delete(event.message_id);
    const node = say(reviewer ? "reviewer" : "assistant", event.answer, reviewer ? "Our team" : "Assistant");
    node.setAttribute("data-answer", reviewer ? "reviewer" : "assistant");
    const cited = event.citations || [];
    if (cited.length) {
      const list = el("ol", { class: "sources", "aria-label": "Sources" });
      for (const c of cited) {
        list.append(el("li", { "data-document-id": c.document_id, text: `${c.title}${c.version ? " (" + c.version + ")" : ""}${c.page ? ", p. " + c.page : ""}` }));
      }
      node.append(list);
    }
  }

  function onEvent(type, event) {
    if (type === "status") {
      status.textContent = event.message || "";
      return;
    }
    if (type === "token") {
      let node = streaming.get(event.message_id);
      if (!node || event.index === 0) {
        node?.remove();
        node = say("assistant", "", "Assistant");
        node.setAttribute("aria-busy", "true");
        streaming.set(event.message_id, node);
      }
      node.append(document.createTextNode(event.text));
      return;
    }
    status.textContent = "";
    send.disabled = false;
    if (type === "response") showAnswer(event);
    else if (type === "escalation") say("notice", event.message).setAttribute("data-escalation", event.escalation_id);
    else if (type === "error" || type === "interrupt") say("notice", event.message);
  }

  async function call(url, options = {}) {
    const headers = { "Content-Type": "application/json" };
    if (session) headers.Authorization = `Bearer ${session.token}`;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(options.json ?? {}) });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error(body.detail || `HTTP ${response.status}`), { status: response.status });
    return body;
  }

  function openStream() {
    return new Promise((resolve) => {
      let resolved = false;
      let source = null;
      let stopped = false;
      const done = () => {
        if (!resolved) {
          resolved = true;
          resolve();
        }
      };
      async function connect() {
        let ticket;
        try {
          ticket = await call(session.event_tickets_url);
        } catch {
          done();
          return;
        }
        const url = new URL(ticket.events_url);
        if (lastEventId) url.searchParams.set("last_event_id", lastEventId);
        source = new EventSource(url.href);
        source.addEventListener("open", done);
        for (const type of TYPES) {
          source.addEventListener(type, (message) => {
            if (message.lastEventId) lastEventId = message.lastEventId;
            try {
              onEvent(type, JSON.parse(message.data));
            } catch {
              /* a malformed event is skipped */
            }
          });
        }
        // A ticket opens a stream once: reconnect with a fresh one, after the last event seen.
        source.addEventListener("error", () => {
          source.close();
          done();
          if (!stopped) setTimeout(connect, 1000);
        });
      }
      connect();
      streamStop = () => {
        stopped = true;
        source?.close();
      };
    });
  }

  async function start() {
    if (session || sessionRefused) return;
    try {
      session = await call(`${gateway}/v1/widget/sessions`, { json: { tenant_id: tenant } });
    } catch (error) {
      sessionRefused = true;
      // A refused origin gets a 403 without CORS headers, which the browser reports as a failed fetch.
      const refused = error.status === 403 || error instanceof TypeError;
      say("notice", refused ? "Chat is not available on this site." : "The chat cannot be reached right now. Please try again later.");
      input.disabled = true;
      send.disabled = true;
      host.setAttribute("data-session", "refused");
      return;
    }
    const look = session.appearance || {};
    host.style.setProperty("--pp-accent", look.accent_colour || "#1f5fbf");
    host.style.setProperty("--pp-text", look.text_colour || "#ffffff");
    title.textContent = look.title || title.textContent;
    say("assistant", look.greeting || "Hello! How can I help?", "Assistant");
    host.setAttribute("data-session", "open");
    await openStream();
  }

  function toggle(open) {
    panel.hidden = !open;
    bubble.setAttribute("aria-expanded", String(open));
    if (open) {
      start();
      input.focus();
    } else {
      bubble.focus();
    }
  }

  bubble.addEventListener("click", () => toggle(panel.hidden));
  close.addEventListener("click", () => toggle(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") toggle(false);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !session) return;
    input.value = "";
    say("user", text, "You");
    send.disabled = true;
    status.textContent = "Thinking…";
    try {
      await call(session.messages_url, { json: { text } });
    } catch (error) {
      send.disabled = false;
      status.textContent = "";
      say("notice", error.message);
    }
  });
  window.addEventListener("pagehide", () => streamStop?.());

  if (document.body) document.body.append(host);
  else document.addEventListener("DOMContentLoaded", () => document.body.append(host));
})();
