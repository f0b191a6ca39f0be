// @ts-check
// Onboarding and the profile: the user's company (name, country, industry, description), asked for
// at the first sign-in, shown in the user bar, editable from Profile.

import { api } from "./api.js";
import { announce, byId } from "./dom.js";

/** @typedef {{ company_name: string | null, country: string | null, industry: string | null,
 *   description: string | null, completed: boolean }} Profile */

const FIELDS = [
  ["company_name", "profile-company"],
  ["country", "profile-country"],
  ["industry", "profile-industry"],
  ["description", "profile-description"],
];
/** Onboarding put off with "Later" is not asked again in this tab. */
const LATER_KEY = "policypal.onboarding-later";

/** Sign-out forgets a "Later": the next sign-in asks again. */
export function forgetOnboardingChoice() {
  sessionStorage.removeItem(LATER_KEY);
}

/** The profile dialog and the user bar's company line. */
export class ProfileEditor {
  constructor() {
    /** @type {Profile | null} */
    this.profile = null;
    const dialog = byId("profile-dialog");
    byId("open-profile").onclick = () => this.edit();
    byId("profile-cancel").onclick = () => dialog.close();
    // However it is closed unsaved (Later, Escape), onboarding waits until the next sign-in.
    dialog.addEventListener("cancel", () => sessionStorage.setItem(LATER_KEY, "1"));
    byId("profile-cancel").addEventListener("click", () => sessionStorage.setItem(LATER_KEY, "1"));
    byId("profile-form").onsubmit = (/** @type {Event} */ event) => {
      event.preventDefault(); // the page's CSP has form-action 'none'
      this.save().catch((error) => {
        byId("profile-error").textContent = error.message;
      });
    };
  }

  /** Load the profile; a user who never gave one is asked for it (once per tab). */
  async load() {
    this.profile = await api("/v1/profile");
    this.show();
    if (!this.profile?.completed && !sessionStorage.getItem(LATER_KEY)) this.edit({ onboarding: true });
  }

  show() {
    const profile = this.profile;
    const parts = [profile?.company_name, profile?.industry, profile?.country].filter(Boolean);
    // Before onboarding, the tenant the token names.
    byId("company").textContent = parts.join(" · ") || byId("company").dataset.tenant || "";
  }

  /** Open the dialog with the profile as it is. */
  edit({ onboarding = false } = {}) {
    byId("profile-dialog-title").textContent = onboarding ? "Welcome to PolicyPal: your company" : "Your company";
    byId("profile-cancel").textContent = onboarding ? "Later" : "Cancel";
    byId("profile-error").textContent = "";
    for (const [field, id] of FIELDS) byId(id).value = this.profile?.[/** @type {keyof Profile} */ (field)] ?? "";
    byId("profile-dialog").showModal();
    byId("profile-company").focus();
  }

  async save() {
    /** @type {Record<string, string>} */
    const body = {};
    for (const [field, id] of FIELDS) body[field] = byId(id).value.trim();
    this.profile = await api("/v1/profile", { method: "PUT", json: body });
    this.show();
    byId("profile-dialog").close();
    announce("Your company profile is saved.");
  }
}
