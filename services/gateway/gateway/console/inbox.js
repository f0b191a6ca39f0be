// @ts-check
// The reviewers' inbox: website customers handed to a person. Lists the waiting tickets, kept live by
// the inbox's event stream (GET /v1/inbox/stream: a ticket opened or answered is reloaded at once) and
// polled every few seconds only while that stream is down; shows a ticket's conversation and retrieved
// sources, and sends the reviewer's reply (it reaches the customer's widget at once) or closes it.
// Mounted by the console: renderInbox(container, api), `api` being the module of console/api.js.

const REFRESH_MS = 3000;
const RECONNECT_MS = 5000;

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {...(Node | string | null)} children
 */
function node(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") element.textContent = value;
    else element.setAttribute(name, value);
  }
  for (const child of children) if (child !== null) element.append(child);
  return element;
}

/** @param {string} iso */
function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * Render the inbox into `container`; returns a function that stops its refreshing.
 * @param {HTMLElement} container
 * @param {any} api the console/api.js module (inboxTickets, inboxTicket, replyToTicket, closeTicket)
 */
export function renderInbox(container, api) {
  const list = node("ul", { class: "inbox-list", "aria-label": "Waiting customers" });
  const detail = node("section", { class: "inbox-detail", "aria-live": "polite", "aria-label": "Ticket" });
  const status = node("p", { class: "inbox-status", role: "status" });
  container.replaceChildren(
    node("div", { class: "inbox", "data-testid": "inbox" }, node("h2", { text: "Inbox" }), status, list, detail),
  );
  /** @type {string | null} */
  let openId = null;
  let shown = "";
  let stopped = false;
  /** Whether the event stream is open: then nothing is polled. */
  let live = false;
  const streamAbort = new AbortController();

  async function refresh() {
    let tickets;
    try {
      tickets = (await api.inboxTickets()).tickets;
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    const signature = tickets.map((/** @type {any} */ t) => t.escalation_id).join(",");
    status.textContent = tickets.length ? `${tickets.length} waiting` : "No customer is waiting.";
    if (signature === shown) return;
    shown = signature;
    list.replaceChildren(
      ...tickets.map((/** @type {any} */ ticket) => {
        const button = node(
          "button",
          { type: "button", class: "inbox-ticket", "data-ticket": ticket.escalation_id },
          node("strong", { text: ticket.question }),
          node("span", { class: "inbox-when", text: ` · ${when(ticket.created_at)}` }),
        );
        button.addEventListener("click", () => open(ticket.escalation_id));
        return node("li", {}, button);
      }),
    );
  }

  /** @param {string} ticketId */
  async function open(ticketId) {
    openId = ticketId;
    let found;
    try {
      found = await api.inboxTicket(ticketId);
    } catch (error) {
      detail.replaceChildren(node("p", { class: "error", text: error.message }));
      return;
    }
    const { ticket, conversation } = found;
    const lines = node(
      "ol",
      { class: "inbox-conversation", "aria-label": "Conversation so far" },
      ...conversation.map((/** @type {any} */ line) =>
        node("li", { class: `inbox-line ${line.role}` }, node("span", { class: "inbox-role", text: line.role === "user" ? "Customer" : "Assistant" }), ` ${line.content}`),
      ),
    );
    const sources = ticket.sources.length
      ? node(
          "ul",
          { class: "inbox-sources", "aria-label": "Retrieved sources" },
          ...ticket.sources.map((/** @type {any} */ s) =>
            node("li", {}, node("strong", { text: `${s.title} (${s.version})${s.page ? `, p. ${s.page}` : ""}: ` }), s.quote),
          ),
        )
      : node("p", { class: "inbox-sources", text: "No passage of the published documents matched." });
    const answer = node("textarea", { id: "inbox-answer", rows: "4", required: "" });
    const send = node("button", { type: "submit", text: "Send reply" });
    const close = node("button", { type: "button", class: "secondary", text: "Close without reply" });
    const form = node("form", { class: "inbox-reply" }, node("label", { for: "inbox-answer", text: "Your reply to the customer" }), answer, send, close);
    const outcome = node("p", { role: "status" });
    /** @param {() => Promise<any>} action */
    async function finish(action) {
      send.toggleAttribute("disabled", true);
      close.toggleAttribute("disabled", true);
      try {
        await action();
        outcome.textContent = "Sent. The customer sees it now.";
        form.remove();
        openId = null;
        await refresh();
      } catch (error) {
        outcome.textContent = error.message;
        send.toggleAttribute("disabled", false);
        close.toggleAttribute("disabled", false);
      }
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = /** @type {HTMLTextAreaElement} */ (answer).value.trim();
      if (text) finish(() => api.replyToTicket(ticket.escalation_id, text));
    });
    close.addEventListener("click", () => finish(() => api.closeTicket(ticket.escalation_id)));
    detail.replaceChildren(
      node("h3", { text: ticket.question }),
      node("p", { class: "inbox-meta", text: `Ticket ${ticket.escalation_id} · ${when(ticket.created_at)}` }),
      lines,
      node("h4", { text: "Sources" }),
      sources,
      ticket.status === "pending_human" ? form : node("p", { text: `Answered: ${ticket.answer ?? ""}` }),
      outcome,
    );
    if (openId === ticketId) answer.focus();
  }

  /**
   * One server-sent event of the inbox stream: `ready` once it listens, `ticket` when one changed.
   * @param {string} kind
   * @param {any} ticket
   */
  function onStreamEvent(kind, ticket) {
    if (kind === "ready") live = true;
    if (kind === "ready" || kind === "ticket") refresh();
    if (kind === "ticket" && ticket.escalation_id === openId && ticket.status !== "pending_human") open(openId);
  }

  // EventSource cannot send the access token, so the stream is read with fetch (same origin, CSP-safe).
  async function listen() {
    if (stopped || !container.isConnected) return;
    try {
      const token = api.storedToken();
      const response = await fetch("/v1/inbox/stream", {
        headers: { Accept: "text/event-stream", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        signal: streamAbort.signal,
      });
      if (!response.ok || !response.body) throw new Error(`inbox stream: ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      let kind = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const lines = (buffered + value).split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines.map((l) => l.replace(/\r$/, ""))) {
          if (line.startsWith("event:")) kind = line.slice(6).trim();
          else if (line.startsWith("data:")) onStreamEvent(kind, JSON.parse(line.slice(5)));
          else if (line === "") kind = "";
        }
      }
    } catch {
      // Dropped or refused: polling takes over until the stream is back.
    }
    live = false;
    if (!stopped) setTimeout(listen, RECONNECT_MS);
  }

  async function poll() {
    if (stopped || !container.isConnected) return;
    if (!live) await refresh();
    setTimeout(poll, REFRESH_MS);
  }
  poll();
  listen();
  return () => {
    stopped = true;
    streamAbort.abort();
  };
}
