// Browser-safe: imports nothing from Deno or the database.
// The "Keyboard shortcuts" dialog (`?`, lib/browser/pages/comfort.ts; loaded on first use): every
// page-wide key, written the way this keyboard says it (⌘ ⇧ on macOS, Ctrl/Shift elsewhere, in
// the page's language). A modal <dialog>: Esc, the Close button or the backdrop close it and
// focus returns to where it was.
import { el } from "./ui_menu.ts";
import { t } from "../i18n/t.ts";

/** One shortcut: what it does and its keys ("mod" and "shift" are spelled per platform). */
const SHORTCUTS: ReadonlyArray<{ does: string; keys: string[] }> = [
  { does: "comfort.doNewChat", keys: ["mod", "shift", "O"] },
  { does: "comfort.doSwitch", keys: ["mod", "K"] },
  { does: "comfort.doSidebar", keys: ["mod", "B"] },
  { does: "comfort.doSettings", keys: ["mod", ","] },
  { does: "comfort.doComposer", keys: ["mod", "/"] },
  { does: "comfort.doStop", keys: ["esc"] },
  { does: "comfort.doHelp", keys: ["?"] },
];

/** A key's label on this platform (modifier names come from the catalog: Strg, Maj, …). */
export function keyLabel(key: string, mac: boolean): string {
  if (key === "mod") return mac ? "⌘" : t("comfort.keyCtrl");
  if (key === "shift") return mac ? "⇧" : t("comfort.keyShift");
  if (key === "esc") return t("comfort.keyEsc");
  return key;
}

let dialog: HTMLDialogElement | null = null;

/** Open the dialog (a second `?` while it is open does nothing). */
export function openShortcuts(mac: boolean): void {
  if (dialog?.open) return;
  const returnTo = document.activeElement as HTMLElement | null;
  const list = el("dl", { class: "shortcuts-list" });
  for (const s of SHORTCUTS) {
    const keys = el("dd", {});
    for (const k of s.keys) keys.append(el("kbd", { class: "shortcut-key" }, keyLabel(k, mac)));
    list.append(el("dt", {}, t(s.does)), keys);
  }
  const close = el("button", { type: "button", class: "btn btn-secondary" }, t("common.close"));
  const d = el(
    "dialog",
    {
      class: "dialog shortcuts-dialog",
      "aria-labelledby": "shortcuts-title",
      "data-shortcuts": true,
    },
    el("h2", { class: "dialog-title", id: "shortcuts-title" }, t("comfort.shortcutsTitle")),
    list,
    el("div", { class: "dialog-actions" }, close),
  );
  dialog = d;
  close.addEventListener("click", () => d.close());
  d.addEventListener("click", (e) => e.target === d && d.close());
  d.addEventListener("close", () => {
    d.remove();
    if (returnTo?.isConnected) returnTo.focus({ preventScroll: true });
  });
  document.body.append(d);
  d.showModal();
  close.focus();
}
