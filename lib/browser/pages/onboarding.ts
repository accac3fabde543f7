// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The first-run wizard's behaviour (lib/browser/onboarding_wizard.ts) loads only on the page
// that shows the wizard.
if (typeof document !== "undefined" && document.querySelector("form[data-ob]")) {
  void import("../onboarding_wizard.ts");
}
