// Building the page from data: every server string becomes a text node, never parsed HTML.

/**
 * Create an element.
 * props: class, text, attrs (set as attributes), on (event handlers), and any DOM property.
 * children: nodes, strings (as text) or null/false (skipped), possibly nested in arrays.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
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

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** A short local date and time for an ISO timestamp ("" for none). */
export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Only http(s) links are followed: anything else (javascript:, data:) is shown as text. */
export function safeHref(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Announce `text` to screen readers through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (region) region.textContent = text;
}
