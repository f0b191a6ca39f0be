// @ts-check
// The little Markdown the actions write (headings, lists, tables, **added**, ~~removed~~, [N]
// markers), built as DOM nodes: the text is never parsed as HTML, so a quote cannot inject markup.

import { el } from "./dom.js";

/** @typedef {(marker: number) => Node | string} MarkerRenderer */

const INLINE = /(\*\*[^*]+\*\*|~~[^~]+~~|\[\d+\]|<br\s*\/?>)/;

/**
 * One line's inline parts as nodes.
 * @param {string} text
 * @param {MarkerRenderer} marker
 * @returns {(Node | string)[]}
 */
export function inline(text, marker) {
  return text.split(INLINE).map((part) => {
    if (/^\*\*[^*]+\*\*$/.test(part)) return el("strong", { text: part.slice(2, -2) });
    if (/^~~[^~]+~~$/.test(part)) return el("del", { text: part.slice(2, -2) });
    const number = /^\[(\d+)\]$/.exec(part);
    if (number) return marker(Number(number[1]));
    if (/^<br\s*\/?>$/.test(part)) return el("br");
    return part;
  });
}

/** @param {string} line */
function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
}

/** @param {string} line */
const isRule = (line) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);

/**
 * A Markdown table (a header row when a rule follows the first line).
 * @param {string[]} lines
 * @param {MarkerRenderer} marker
 */
function table(lines, marker) {
  const headed = lines.length > 1 && isRule(lines[1]);
  const head = headed ? cells(lines[0]) : null;
  const body = (headed ? lines.slice(2) : lines).filter((line) => !isRule(line)).map(cells);
  return el(
    "div",
    { class: "table-wrap", tabIndex: 0, attrs: { role: "region", "aria-label": "Table" } },
    el(
      "table",
      {},
      head ? el("thead", {}, el("tr", {}, head.map((cell) => el("th", { attrs: { scope: "col" } }, inline(cell, marker))))) : null,
      el("tbody", {}, body.map((row) => el("tr", {}, row.map((cell) => el("td", {}, inline(cell, marker)))))),
    ),
  );
}

/**
 * An indented line under a list item: a redline's "Before: …" (removed words struck) or "After: …"
 * (added words marked), or any other continuation.
 * @param {string} text
 * @param {MarkerRenderer} marker
 */
function wording(text, marker) {
  const side = /^(Before|After):/.exec(text)?.[1]?.toLowerCase() ?? "more";
  return el("div", { class: `wording wording-${side}` }, inline(text, marker));
}

/**
 * Markdown text as a block of nodes.
 * @param {string} text
 * @param {MarkerRenderer} marker
 * @returns {HTMLElement}
 */
export function renderMarkdown(text, marker) {
  const lines = text.split("\n");
  /** @type {HTMLElement[]} */
  const blocks = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (!line.trim()) {
      index += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, Math.max(4, heading[1].length + 2));
      blocks.push(el(`h${level}`, { class: "answer-heading" }, inline(heading[2], marker)));
      index += 1;
      continue;
    }
    if (line.trim().startsWith("|")) {
      const rows = [];
      while (index < lines.length && lines[index].trim().startsWith("|")) rows.push(lines[index++]);
      blocks.push(table(rows, marker));
      continue;
    }
    const item = /^\s*(?:[-*•]|(\d+)[.)])\s+(.*)$/;
    if (item.test(line)) {
      const ordered = Boolean(item.exec(line)?.[1]);
      const entries = [];
      while (index < lines.length) {
        const match = item.exec(lines[index]);
        const continued = /^\s{2,}(\S.*)$/.exec(lines[index]);
        if (match) entries.push(el("li", {}, inline(match[2], marker)));
        else if (continued && entries.length) entries[entries.length - 1].append(wording(continued[1], marker));
        else break;
        index += 1;
      }
      blocks.push(el(ordered ? "ol" : "ul", { class: "answer-list" }, entries));
      continue;
    }
    const paragraph = [];
    while (
      index < lines.length &&
      lines[index].trim() &&
      !/^(#{1,6})\s/.test(lines[index]) &&
      !lines[index].trim().startsWith("|") &&
      !item.test(lines[index])
    ) {
      paragraph.push(lines[index++]);
    }
    blocks.push(el("p", {}, paragraph.flatMap((part, i) => (i ? [el("br"), ...inline(part, marker)] : inline(part, marker)))));
  }
  return el("div", { class: "answer-text" }, blocks);
}
