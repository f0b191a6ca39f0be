// @ts-check
// The website widget's settings, for administrators (docs/product.md, Website widget): the sites it
// may run on, its title and greeting, the confidence under which a person answers, and its colours.
// Read and written through the tenant admin API (GET/PUT /v1/admin/tenant): PUT replaces the whole
// profile, so the fields this dialog does not show (industry, location, limits) are sent back as read.
// Mounted by the console: mountWidgetSettings(userActions, api) adds a "Widget" button to the user
// bar and returns a function that removes it and its dialog.

/**
 * @typedef {{ greeting: string, confidence_threshold: number, title: string, accent_colour: string,
 *   text_colour: string }} WidgetSettings
 * @typedef {{ tenant_id: string, allowed_domains: string[], industry: string | null,
 *   location: string | null, limits: Record<string, number | null>, widget: WidgetSettings }} TenantProfile
 */

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {...(Node | string)} children
 */
function node(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") element.textContent = value;
    else element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

/**
 * A labelled input of the form.
 * @param {string} id
 * @param {string} label
 * @param {Record<string, string>} attrs
 * @returns {[HTMLLabelElement, HTMLInputElement]}
 */
function field(id, label, attrs) {
  const input = /** @type {HTMLInputElement} */ (node("input", { id, name: id, ...attrs }));
  return [/** @type {HTMLLabelElement} */ (node("label", { for: id, text: label })), input];
}

/** The domains typed one per line (or separated by commas or spaces), without blanks. @param {string} text */
export function parseDomains(text) {
  return text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter(Boolean);
}

// The tenant API's host pattern (policypal.auth.tenants.DomainPattern): checked here so that a typo is
// named at once, without a refused request.
const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$/i;

/** The first entry that is not a host name (or `*.` and a host name); null when all are. @param {string[]} domains */
export function badDomain(domains) {
  return domains.find((domain) => !DOMAIN.test(domain)) ?? null;
}

/**
 * The form's values over `profile`: what PUT /v1/admin/tenant receives.
 * @param {TenantProfile} profile
 * @param {{ domains: string, title: string, greeting: string, threshold: string, accent: string, text: string }} values
 */
export function updatedSettings(profile, values) {
  return {
    allowed_domains: parseDomains(values.domains),
    industry: profile.industry,
    location: profile.location,
    limits: profile.limits,
    widget: {
      ...profile.widget,
      title: values.title.trim(),
      greeting: values.greeting.trim(),
      confidence_threshold: Number(values.threshold),
      accent_colour: values.accent,
      text_colour: values.text,
    },
  };
}

/**
 * Add the "Widget" button to `userActions` (before its last button, Sign out) and its dialog to the page.
 * @param {HTMLElement} userActions
 * @param {any} api the console/api.js module (its `api` function)
 * @returns {() => void} removes the button and the dialog
 */
export function mountWidgetSettings(userActions, api) {
  const open = node("button", { id: "open-widget-settings", class: "quiet", type: "button", text: "Widget" });
  userActions.insertBefore(open, userActions.lastElementChild);

  const [domainsLabel, domains] = [
    node("label", { for: "widget-domains", text: "Sites the widget may run on (one per line)" }),
    /** @type {HTMLTextAreaElement} */ (
      node("textarea", { id: "widget-domains", rows: "3", placeholder: "shop.example.com\n*.example.org" })
    ),
  ];
  const [titleLabel, title] = field("widget-title", "Title", { maxlength: "60", required: "" });
  const [greetingLabel, greeting] = [
    node("label", { for: "widget-greeting", text: "Greeting" }),
    /** @type {HTMLTextAreaElement} */ (node("textarea", { id: "widget-greeting", rows: "2", maxlength: "300", required: "" })),
  ];
  const [thresholdLabel, threshold] = field("widget-threshold", "Hand over to a person below this confidence (0 to 1)", {
    type: "number",
    min: "0",
    max: "1",
    step: "0.01",
    required: "",
  });
  const [accentLabel, accent] = field("widget-accent", "Accent colour", { type: "color" });
  const [textLabel, text] = field("widget-text-colour", "Text colour on the accent", { type: "color" });
  const error = node("p", { id: "widget-settings-error", class: "error", role: "alert" });
  const cancel = node("button", { type: "button", text: "Cancel" });
  const save = node("button", { type: "submit", text: "Save" });
  const form = node(
    "form",
    {},
    node("h2", { id: "widget-settings-title", text: "Website widget" }),
    node("p", { id: "widget-settings-text", class: "hint", text: "How the chat bubble on your sites greets customers, and when a person answers them." }),
    domainsLabel,
    domains,
    titleLabel,
    title,
    greetingLabel,
    greeting,
    thresholdLabel,
    threshold,
    accentLabel,
    accent,
    textLabel,
    text,
    error,
    node("div", { class: "dialog-actions" }, cancel, save),
  );
  const dialog = /** @type {HTMLDialogElement} */ (
    node(
      "dialog",
      {
        id: "widget-settings-dialog",
        class: "ask-dialog wide",
        "aria-labelledby": "widget-settings-title",
        "aria-describedby": "widget-settings-text",
      },
      form,
    )
  );
  document.body.append(dialog);

  /** @type {TenantProfile | null} */
  let profile = null;

  open.addEventListener("click", async () => {
    error.textContent = "";
    try {
      profile = /** @type {TenantProfile} */ (await api.api("/v1/admin/tenant"));
    } catch (failure) {
      error.textContent = /** @type {Error} */ (failure).message;
      dialog.showModal();
      return;
    }
    domains.value = profile.allowed_domains.join("\n");
    title.value = profile.widget.title;
    greeting.value = profile.widget.greeting;
    threshold.value = String(profile.widget.confidence_threshold);
    accent.value = expandColour(profile.widget.accent_colour);
    text.value = expandColour(profile.widget.text_colour);
    dialog.showModal();
    domains.focus();
  });
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => open.focus());
  form.addEventListener("submit", async (event) => {
    // Handled here: the page's CSP has form-action 'none'.
    event.preventDefault();
    if (!profile) return;
    const bad = badDomain(parseDomains(domains.value));
    if (bad !== null) {
      error.textContent = `"${bad}" is not a site's host name, such as shop.example.com or *.example.org.`;
      domains.focus();
      return;
    }
    save.toggleAttribute("disabled", true);
    error.textContent = "";
    try {
      const values = {
        domains: domains.value,
        title: title.value,
        greeting: greeting.value,
        threshold: threshold.value,
        accent: accent.value,
        text: text.value,
      };
      profile = await api.api("/v1/admin/tenant", { method: "PUT", json: updatedSettings(profile, values) });
      dialog.close();
    } catch (failure) {
      error.textContent = /** @type {Error} */ (failure).message;
    } finally {
      save.toggleAttribute("disabled", false);
    }
  });
  return () => {
    open.remove();
    dialog.remove();
  };
}

/** `#rgb` as `#rrggbb`: a colour input accepts only the long form. @param {string} colour */
function expandColour(colour) {
  return /^#[0-9a-fA-F]{3}$/.test(colour) ? `#${[...colour.slice(1)].map((c) => c + c).join("")}`.toLowerCase() : colour.toLowerCase();
}
