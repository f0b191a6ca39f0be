// @ts-check
// The console's entry point: sign in and out, then the workspace: the left panel (Chats, Documents,
// Inbox), the chat, and the Sources panel.

import * as apiModule from "./api.js";
import { forgetToken, storedToken, storeToken, tokenClaims, whenUnauthorized } from "./api.js";
import { Chat } from "./chat.js";
import { Conversations } from "./conversations.js";
import { Documents } from "./documents.js";
import { announce, byId as $, fill } from "./dom.js";
import { Layout } from "./layout.js";
import { forgetOnboardingChoice, ProfileEditor } from "./profile.js";
import { SourcesPanel } from "./sources.js";
import { mountWidgetSettings } from "./widget_settings.js";

/** Who may see the Inbox tab (escalations and the widget's customers). */
const INBOX_ROLES = new Set(["admin", "reviewer"]);

/** @type {{ chat: Chat, conversations: Conversations, documents: Documents } | null} */
let panels = null;
/** @type {Layout | null} */
let layout = null;
/** Removes the administrator's Widget button and dialog. @type {(() => void) | null} */
let unmountWidgetSettings = null;

/** @param {string} [message] */
function showSignIn(message = "") {
  $("console-view").hidden = true;
  $("sign-in-view").hidden = false;
  fill($("whoami"));
  $("sign-in-error").textContent = message;
  $("token-input").value = "";
  $("token-input").focus();
}

/** @param {string} [message] */
function signOut(message = "") {
  forgetToken();
  forgetOnboardingChoice();
  panels?.chat.clear();
  panels?.documents.close();
  panels = null;
  layout?.showInbox(false);
  layout?.inboxOnly(false);
  unmountWidgetSettings?.();
  unmountWidgetSettings = null;
  for (const id of ["ask-dialog", "upload-dialog", "profile-dialog"]) if ($(id).open) $(id).close();
  showSignIn(message);
}

/** @param {string} token */
function describeToken(token) {
  const claims = tokenClaims(token);
  if (!claims) return { who: "API key", tenant: "", initials: "K", title: "Signed in with an API key" };
  const user = String(claims.sub ?? "unknown user");
  const expiry = claims.exp ? ` · token valid until ${new Date(claims.exp * 1000).toLocaleString()}` : "";
  return {
    who: user,
    tenant: `Tenant ${claims.tid ?? "unknown"}`,
    initials: user.slice(0, 2).toUpperCase(),
    title: `Signed in as ${user} (tenant ${claims.tid ?? "unknown"})${expiry}`,
  };
}

/** @param {string} token */
function tokenExpired(token) {
  const claims = tokenClaims(token);
  return Boolean(claims?.exp && claims.exp * 1000 <= Date.now());
}

/**
 * The Inbox tab, for administrators and reviewers, when the console ships its module: it is
 * imported only then, and a console without it simply has no Inbox.
 * @param {string} token
 * @returns {Promise<boolean>} whether the Inbox is there
 */
async function mountInbox(token) {
  const role = tokenClaims(token)?.role;
  if (!layout || !INBOX_ROLES.has(role)) return false;
  let module;
  try {
    module = await import("./inbox.js");
  } catch {
    return false;
  }
  layout.showInbox(true);
  let mounted = false;
  layout.onTab = (tab) => {
    if (tab === "inbox" && !mounted) {
      mounted = true;
      Promise.resolve(module.renderInbox($("inbox-panel"), apiModule)).catch((/** @type {Error} */ error) => {
        $("inbox-panel").textContent = error.message;
      });
    }
  };
  return true;
}

/** @param {string} token */
async function showConsole(token) {
  $("sign-in-view").hidden = true;
  $("console-view").hidden = false;
  const who = describeToken(token);
  $("whoami").textContent = who.who;
  $("whoami").title = who.title;
  $("company").dataset.tenant = who.tenant;
  $("user-initials").textContent = who.initials;
  const sources = new SourcesPanel({ onToggle: (open) => layout?.sourcesToggled(open) });
  const documents = new Documents();
  const chat = new Chat({
    onChanged: () => panels?.conversations.refresh().catch(() => {}),
    onCite: (answer, marker) => sources.show(answer, marker),
    library: () => documents.items,
  });
  const conversations = new Conversations({
    onSelect: async (id) => {
      sources.clear();
      layout?.chose();
      await chat.open(id);
    },
    chat,
  });
  panels = { chat, conversations, documents };
  if (tokenClaims(token)?.role === "reviewer") {
    chat.setTitle("Answer customers from the Inbox");
    if (await mountInbox(token)) layout?.inboxOnly(true);
    announce("Signed in.");
    return;
  }
  const profile = new ProfileEditor();
  if (tokenClaims(token)?.role === "admin" && !unmountWidgetSettings) {
    const userActions = /** @type {HTMLElement} */ (document.querySelector(".user-actions"));
    unmountWidgetSettings = mountWidgetSettings(userActions, apiModule);
  }
  // Each panel loads on its own: one that fails says so in its place and leaves the others usable.
  const loads = await Promise.allSettled([
    conversations.refresh({ selectFirst: true }),
    documents.refresh(),
    profile.load(),
    mountInbox(token),
  ]);
  const failed = loads.find((load) => load.status === "rejected");
  if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
  announce("Signed in.");
}

function start() {
  layout = new Layout({
    onPlus: (tab) => {
      if (!panels) return;
      const { conversations, documents } = panels;
      if (tab === "documents") documents.upload();
      else conversations.guard(() => conversations.create().then(() => layout?.chose()));
    },
  });
  whenUnauthorized((message) => signOut(message));
  $("sign-out").addEventListener("click", () => signOut("You are signed out."));
  $("sign-in-form").addEventListener("submit", (/** @type {Event} */ event) => {
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
