// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// Control Center › Profiles and › Prompts: only the wiring lives here (it loads on every page);
// what the buttons and forms do (lib/browser/agent_panel_actions.ts) loads on first use.
// No static import of lib/browser/control_panels.ts: the wiring needs only the layer, and every
// page would pay for the panels' helpers before any interaction.
const controlLayer = () => document.querySelector<HTMLElement>("[data-cc-layer]");
const actions = () => import("../agent_panel_actions.ts");
const isMine = (action: string) => action.startsWith("profile-") || action.startsWith("prompt-");

function init(): void {
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-cc-action]",
    );
    const action = button?.dataset.ccAction ?? "";
    if (!button || !isMine(action) || !controlLayer()?.contains(button)) return;
    void actions().then((m) => m.panelAction(button, action));
  });
  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    const kind = form.dataset?.ccForm ?? "";
    if ((kind !== "profile-save" && kind !== "prompt-save") || !controlLayer()?.contains(form)) {
      return;
    }
    e.preventDefault();
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    void actions().then((m) =>
      kind === "profile-save" ? m.saveProfile(form, submitter) : m.savePrompt(form, submitter)
    );
  });
}

if (typeof document !== "undefined") init();
