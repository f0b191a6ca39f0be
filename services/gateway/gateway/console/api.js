// The REST API on this origin and the notifier's event streams, with the signed-in token.

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

/** `url` (an `events_url` the API returned) with the token, as EventSource cannot send headers. */
export function withToken(url) {
  const full = new URL(url, location.href);
  full.searchParams.set("token", storedToken() ?? "");
  return full.href;
}

/**
 * Follow an event stream. `onEvent(type, payload)` gets each named event in order; `types` lists
 * the event names to listen for. The browser reconnects by itself with Last-Event-ID; when the
 * stream cannot be opened at all, the token is checked (a 401 signs out) and `onLost` is told.
 * Returns a function that closes the stream.
 */
export function follow(url, types, onEvent, onLost = () => {}) {
  const source = new EventSource(withToken(url));
  for (const type of types) {
    source.addEventListener(type, (message) => {
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
    if (source.readyState !== EventSource.CLOSED) return; // reconnecting by itself
    api("/v1/conversations").then(
      () => onLost("The event stream closed; reload to see the latest state."),
      (error) => onLost(error.message),
    );
  });
  return () => source.close();
}
