// @ts-check
// The page's own modal dialog, in place of the browser's prompt() and confirm(): labelled by its
// title, Escape or Cancel closes it, and the focus goes back to what opened it.

import { byId as $ } from "./dom.js";

/**
 * Show the dialog. With `label`, it asks for a line of text (starting as `value`) and resolves with
 * the trimmed text; without, it asks to confirm and resolves with true. Cancelled: null.
 */
function ask({ title, text = "", label = null, value = "", confirmLabel, danger = false }) {
  const dialog = $("ask-dialog");
  const input = $("ask-dialog-input");
  const confirmButton = $("ask-dialog-confirm");
  const opener = document.activeElement;
  $("ask-dialog-title").textContent = title;
  $("ask-dialog-text").textContent = text;
  $("ask-dialog-text").hidden = !text;
  $("ask-dialog-field").hidden = label === null;
  $("ask-dialog-label").textContent = label ?? "";
  input.value = value;
  input.required = label !== null;
  confirmButton.textContent = confirmLabel;
  confirmButton.classList.toggle("danger", danger);
  return new Promise((resolve) => {
    let result = null;
    $("ask-dialog-form").onsubmit = (event) => {
      // Handled here rather than by method="dialog": the page's CSP has form-action 'none'.
      event.preventDefault();
      if (label !== null) {
        if (!input.value.trim()) return;
        result = input.value.trim();
      } else {
        result = true;
      }
      dialog.close();
    };
    $("ask-dialog-cancel").onclick = () => dialog.close();
    // Escape fires "cancel" then "close": every way out ends here, once.
    dialog.addEventListener(
      "close",
      () => {
        if (opener instanceof HTMLElement && opener.isConnected && !(/** @type {HTMLButtonElement} */ (opener).disabled)) opener.focus();
        resolve(result);
      },
      { once: true },
    );
    dialog.showModal();
    if (label !== null) input.select();
    else $("ask-dialog-cancel").focus(); // a destructive choice is never the default
  });
}

/** Ask for a line of text; resolves with it, or null when cancelled. */
export function askText({ title, label, value = "", confirmLabel = "Save" }) {
  return ask({ title, label, value, confirmLabel });
}

/** Ask to confirm an action; resolves with true, or null when cancelled. */
export function confirmAction({ title, text, confirmLabel, danger = true }) {
  return ask({ title, text, confirmLabel, danger });
}
