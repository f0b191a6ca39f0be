// The console's entry point: sign in and out, then the conversations, chat and documents panels.

import { forgetToken, storedToken, storeToken, tokenClaims, whenUnauthorized } from "./api.js";
import { Chat } from "./chat.js";
import { Conversations } from "./conversations.js";
import { Documents } from "./documents.js";
import { announce, fill } from "./dom.js";

const $ = (id) => document.getElementById(id);

let panels = null;

function showSignIn(message = "") {
  $("console-view").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in-view").hidden = false;
  fill($("whoami"));
  $("sign-in-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

function signOut(message = "") {
  forgetToken();
  panels?.chat.close();
  panels?.documents.close();
  panels = null;
  showSignIn(message);
}

function describeToken(token) {
  const claims = tokenClaims(token);
  if (!claims) return "Signed in with an API key";
  const who = `${claims.sub ?? "unknown user"} (tenant ${claims.tid ?? "unknown"})`;
  if (!claims.exp) return `Signed in as ${who}`;
  const expires = new Date(claims.exp * 1000);
  return `Signed in as ${who} · token valid until ${expires.toLocaleString()}`;
}

function tokenExpired(token) {
  const claims = tokenClaims(token);
  return Boolean(claims?.exp && claims.exp * 1000 <= Date.now());
}

async function showConsole(token) {
  $("sign-in-view").hidden = true;
  $("console-view").hidden = false;
  $("sign-out").hidden = false;
  $("whoami").textContent = describeToken(token);
  const chat = new Chat({ onChanged: () => panels?.conversations.refresh() });
  const conversations = new Conversations({ onSelect: (id) => chat.open(id), chat });
  const documents = new Documents();
  panels = { chat, conversations, documents };
  await Promise.all([conversations.refresh({ selectFirst: true }), documents.refresh()]);
  announce("Signed in.");
}

function start() {
  whenUnauthorized((message) => signOut(message));
  $("sign-out").addEventListener("click", () => signOut("You are signed out."));
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("token-input").value.trim().replace(/^Bearer\s+/i, "");
    if (!token) return;
    if (tokenExpired(token)) {
      $("sign-in-error").textContent = "This token has expired; get a new one with `policypal token`.";
      return;
    }
    storeToken(token);
    showConsole(token).catch((error) => {
      if (storedToken()) $("composer-error").textContent = error.message;
    });
  });
  const token = storedToken();
  if (!token) showSignIn();
  else if (tokenExpired(token)) signOut("Your token has expired; sign in again.");
  else showConsole(token).catch(() => {});
}

start();
