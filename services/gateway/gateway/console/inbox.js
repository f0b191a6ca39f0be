// @ts-check
// The reviewers' inbox: website customers handed to a person. Lists the waiting tickets (refreshed
// every few seconds while shown), shows a ticket's conversation and retrieved sources, and sends the
// reviewer's reply (it reaches the customer's widget at once) or closes the ticket.
// Mounted by the console: renderInbox(container, api), `api` being the module of console/api.js.

const REFRESH_MS = 3000;

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

  async function loop() {
    if (stopped || !container.isConnected) return;
    await refresh();
    setTimeout(loop, REFRESH_MS);
  }
  loop();
  return () => {
    stopped = true;
  };
}
