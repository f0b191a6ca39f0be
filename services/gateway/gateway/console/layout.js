// @ts-check
// The workspace's frame: the left panel's tabs (Chats, Documents, Inbox) and its plus button, and
// on narrow screens the left panel and the Sources panel as drawers over the chat.

import { byId } from "./dom.js";

/** @typedef {"chats" | "documents" | "inbox"} TabName */

const NARROW = window.matchMedia("(max-width: 900px)");
const PLUS_LABELS = { chats: "New chat", documents: "Upload a document", inbox: "New chat" };

/** Tabs, plus button and drawers. */
export class Layout {
  /** @param {{ onPlus: (tab: TabName) => void, onTab?: (tab: TabName) => void }} options */
  constructor({ onPlus, onTab = () => {} }) {
    this.onTab = onTab;
    /** @type {TabName} */
    this.current = "chats";
    /** @type {TabName[]} */
    this.names = ["chats", "documents", "inbox"];
    for (const name of this.names) {
      const tab = byId(`tab-${name}`);
      tab.onclick = () => this.select(name);
      tab.onkeydown = (/** @type {KeyboardEvent} */ event) => this.tabKey(event, name);
    }
    byId("plus-button").onclick = () => onPlus(this.current);
    byId("open-left").onclick = () => this.openLeft();
    byId("close-left").onclick = () => this.closeDrawers();
    byId("scrim").onclick = () => this.closeDrawers();
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.drawerOpen()) this.closeDrawers();
    });
    NARROW.addEventListener("change", () => this.closeDrawers());
  }

  /** The tabs shown (the Inbox only to whoever may review). */
  visibleTabs() {
    return this.names.filter((name) => !byId(`tab-${name}`).hidden);
  }

  /**
   * Arrow keys move between tabs (the tablist pattern: one tab stop, arrows within).
   * @param {KeyboardEvent} event @param {TabName} name
   */
  tabKey(event, name) {
    const tabs = this.visibleTabs();
    const at = tabs.indexOf(name);
    let next = null;
    if (event.key === "ArrowRight") next = tabs[(at + 1) % tabs.length];
    else if (event.key === "ArrowLeft") next = tabs[(at - 1 + tabs.length) % tabs.length];
    else if (event.key === "Home") next = tabs[0];
    else if (event.key === "End") next = tabs[tabs.length - 1];
    if (!next) return;
    event.preventDefault();
    this.select(next);
    byId(`tab-${next}`).focus();
  }

  /** @param {TabName} name */
  select(name) {
    this.current = name;
    for (const other of this.names) {
      const chosen = other === name;
      const tab = byId(`tab-${other}`);
      tab.setAttribute("aria-selected", String(chosen));
      tab.tabIndex = chosen ? 0 : -1;
      byId(`${other}-panel`).hidden = !chosen;
    }
    const label = PLUS_LABELS[name];
    byId("plus-button").setAttribute("aria-label", label);
    byId("plus-button").title = label;
    this.onTab(name);
  }

  /** @param {boolean} shown */
  showInbox(shown) {
    byId("tab-inbox").hidden = !shown;
  }

  /**
   * A reviewer's console is the Inbox only: a reviewer has no library or conversations of their own.
   * @param {boolean} only
   */
  inboxOnly(only) {
    for (const id of ["tab-chats", "tab-documents", "plus-button", "open-profile"]) byId(id).hidden = only;
    this.select(only ? "inbox" : "chats");
  }

  /** @param {boolean} open */
  sourcesToggled(open) {
    byId("console-view").classList.toggle("with-sources", open);
    this.syncScrim();
  }

  openLeft() {
    byId("console-view").classList.add("left-open");
    byId("open-left").setAttribute("aria-expanded", "true");
    this.syncScrim();
    byId(`tab-${this.current}`).focus();
  }

  drawerOpen() {
    const view = byId("console-view");
    return NARROW.matches && (view.classList.contains("left-open") || view.classList.contains("with-sources"));
  }

  /** On a narrow screen, close whichever drawer is open (the chat is what is left). */
  closeDrawers() {
    const view = byId("console-view");
    const wasLeft = view.classList.contains("left-open");
    view.classList.remove("left-open");
    byId("open-left").setAttribute("aria-expanded", "false");
    if (NARROW.matches && view.classList.contains("with-sources")) byId("close-sources").click();
    this.syncScrim();
    if (wasLeft && NARROW.matches) byId("open-left").focus();
  }

  /** Called when a choice in the left panel opens something in the chat. */
  chose() {
    if (NARROW.matches) this.closeDrawers();
  }

  syncScrim() {
    byId("scrim").hidden = !this.drawerOpen();
  }
}
