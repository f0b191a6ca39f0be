// The REST API on this origin (with the signed-in token) and the notifier's event streams (with tickets).

const TOKEN_KEY = "policypal.token";

let onUnauthorized = () => {};

/** Call `handler(message)` when the API refuses the token (expired, revoked, invalid). */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

export function storedToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** The claims of a JWT, for display only (the server verifies it); null for an API key. */
export function tokenClaims(token) {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "=")));
  } catch {
    return null;
  }
}

/** An API error with the server's sentence (`detail`) and the HTTP status. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function detailOf(status, body) {
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail) && body.detail.length) {
    const first = body.detail[0];
    const field = Array.isArray(first.loc) ? first.loc[first.loc.length - 1] : "";
    return `${field ? field + ": " : ""}${first.msg ?? "invalid value"}`;
  }
  return `The server answered ${status}.`;
}

/**
 * Call the API: `json` is sent as a JSON body, `form` as multipart; the parsed answer is returned
 * (null for 204). A 401 signs the user out with the server's reason.
 * @param {string} path
 * @param {{ method?: string, json?: unknown, form?: FormData, headers?: Record<string, string> }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", json, form, headers = {} } = {}) {
  const token = storedToken();
  const init = { method, headers: { ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (form !== undefined) {
    init.body = form;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "The PolicyPal server cannot be reached; check that it is running.");
  }
  const text = await response.text();
  let body = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, detailOf(response.status, body));
    if (response.status === 401) onUnauthorized(error.message);
    throw error;
  }
  return body;
}

/** Ask the gateway for a single-use ticket that opens the stream at `url` (no token ever goes in a URL). */
async function streamWithTicket(url, lastEventId) {
  const target = new URL(url, location.href);
  const ticket = await api(target.pathname.replace(/\/events$/, "/event-tickets"), { method: "POST" });
  const stream = new URL(ticket.events_url, location.href);
  for (const [key, value] of target.searchParams) stream.searchParams.set(key, value);
  if (lastEventId) stream.searchParams.set("last_event_id", lastEventId);
  return stream.href;
}

const MAX_RECONNECTS = 5;

/**
 * Follow an event stream. `onEvent(type, payload)` gets each named event in order; `types` lists
 * the event names to listen for. A ticket opens a stream once, so the browser's own reconnect (same
 * URL) cannot work: a dropped stream is reopened here with a new ticket, resuming after the last
 * event seen. When the stream cannot be opened at all, the token is checked (a 401 signs out) and
 * `onLost` is told. Returns a function that closes the stream.
 */
export function follow(url, types, onEvent, onLost = () => {}) {
  let source = null;
  let stopped = false;
  let lastEventId = "";
  let reconnects = 0;

  const lost = (message) => {
    if (!stopped) onLost(message);
  };

  async function open() {
    let streamUrl;
    try {
      streamUrl = await streamWithTicket(url, lastEventId);
    } catch (error) {
      lost(error.message);
      return;
    }
    if (stopped) return;
    let opened = false;
    source = new EventSource(streamUrl);
    source.addEventListener("open", () => {
      opened = true;
    });
    for (const type of types) {
      source.addEventListener(type, (message) => {
        if (message.lastEventId) lastEventId = message.lastEventId;
        reconnects = 0; // the stream makes progress: a later drop gets a fresh set of retries
        let payload;
        try {
          payload = JSON.parse(message.data);
        } catch {
          return;
        }
        onEvent(type, payload);
      });
    }
    source.addEventListener("error", () => {
      source.close();
      if (stopped) return;
      if (opened && reconnects < MAX_RECONNECTS) {
        reconnects += 1;
        setTimeout(open, 500 * 2 ** (reconnects - 1));
        return;
      }
      api("/v1/conversations").then(
        () => lost("The event stream closed; reload to see the latest state."),
        (error) => lost(error.message),
      );
    });
  }

  open();
  return () => {
    stopped = true;
    source?.close();
  };
}

// The reviewers' inbox and the widget's publications (docs/product.md, Website widget).

/** Tickets of the tenant, by default those waiting for a person (`status`: pending_human or resolved). */
export function inboxTickets(status = "pending_human") {
  return api(`/v1/inbox/tickets?status=${encodeURIComponent(status)}`);
}

/** One ticket with the customer's conversation so far and the retrieved sources. */
export function inboxTicket(ticketId) {
  return api(`/v1/inbox/tickets/${encodeURIComponent(ticketId)}`);
}

/** Answer the customer; the reply appears in their widget at once and resolves the ticket. */
export function replyToTicket(ticketId, answer) {
  return api(`/v1/inbox/tickets/${encodeURIComponent(ticketId)}/reply`, { method: "POST", json: { answer } });
}

/** Resolve a ticket without an answer of one's own (the customer is told it was closed). */
export function closeTicket(ticketId) {
  return api(`/v1/inbox/tickets/${encodeURIComponent(ticketId)}/close`, { method: "POST" });
}

/** What the widget answers from: publications and the documents they cover now (administrators). */
export function widgetPublications() {
  return api("/v1/admin/widget/publications");
}

/** Publish `{ document_id }` or `{ set_name }` to the widget. */
export function publishToWidget(what) {
  return api("/v1/admin/widget/publications", { method: "POST", json: what });
}

/** Take a publication off the widget by its key. */
export function unpublishFromWidget(publicationKey) {
  return api(`/v1/admin/widget/publications/${encodeURIComponent(publicationKey)}`, { method: "DELETE" });
}
