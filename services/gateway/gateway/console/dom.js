// @ts-check
// The console's shared helpers: building the page from data (every server string becomes a text
// node, never parsed HTML), dates, links, announcements and how a document is named.

/**
 * Create an element.
 * props: class, text, attrs (set as attributes), on (event handlers), and any DOM property.
 * children: nodes, strings (as text) or null/false (skipped), possibly nested in arrays.
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = /** @type {any} */ (document.createElement(tag));
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "attrs") {
      for (const [name, attr] of Object.entries(value)) {
        if (attr !== undefined && attr !== null && attr !== false) node.setAttribute(name, String(attr));
      }
    } else if (key === "on") {
      for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    } else node[key] = value;
  }
  append(node, children);
  return node;
}

/** @param {Node} node @param {any[]} children */
function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace every child of `node` with `children`.
 * @template {Node} T
 * @param {T} node
 * @param {...any} children
 * @returns {T}
 */
export function fill(node, ...children) {
  /** @type {any} */ (node).replaceChildren();
  append(node, children);
  return node;
}

/**
 * The element with this id (the page's own, fixed ids).
 * @param {string} id
 * @returns {any}
 */
export function byId(id) {
  return document.getElementById(id);
}

/**
 * A short local date and time for an ISO timestamp ("" for none).
 * @param {string | null | undefined} iso
 */
export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * Only http(s) links are followed: anything else (javascript:, data:) is shown as text.
 * @param {string} url
 * @returns {string | null}
 */
export function safeHref(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Announce `text` to screen readers through the page's polite live region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (region) region.textContent = text;
}

/**
 * "Title (Version)", as the library, status lines and questions name a document.
 * @param {{ title: string, version?: string | null }} doc
 */
export function displayTitle(doc) {
  return doc.version ? `${doc.title} (${doc.version})` : doc.title;
}

/**
 * "1 page", "3 pages".
 * @param {number} count
 * @param {string} word
 */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The set colours of the palette (gateway/sets.py): anything else is shown without a colour. */
export const PALETTE = new Set(["blue", "green", "orange", "purple", "teal", "red", "amber", "pink", "indigo", "slate"]);

/**
 * A fresh Idempotency-Key.
 * @returns {string}
 */
export function newKey() {
  return crypto.randomUUID();
}
