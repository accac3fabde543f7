// Browser-safe: imports nothing from Deno or the database.
// The Copy button of rendered code blocks: one delegated click listener for the whole page, so
// blocks rendered later (streamed, older pages) need no wiring. Falls back to a selection copy
// where the clipboard API is missing (plain http).
import { t } from "../i18n/t.ts";

/** Install the listener; returns the function that removes it. */
export function installCodeCopy(doc: Document = document): () => void {
  const onClick = async (e: MouseEvent) => {
    const btn = (e.target as Element | null)?.closest?.(".code-copy");
    if (!(btn instanceof HTMLButtonElement)) return;
    const code = btn.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    let ok = false;
    try {
      await navigator.clipboard.writeText(code);
      ok = true;
    } catch {
      // No clipboard API (plain http): copy through a selection.
      const area = doc.createElement("textarea");
      area.value = code;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      doc.body.append(area);
      area.select();
      ok = doc.execCommand("copy");
      area.remove();
    }
    btn.textContent = ok ? t("common.copied") : t("transcript.copyFailed");
    btn.dataset.state = ok ? "copied" : "failed";
    setTimeout(() => {
      btn.textContent = t("common.copy");
      delete btn.dataset.state;
    }, 1500);
  };
  doc.addEventListener("click", onClick);
  return () => doc.removeEventListener("click", onClick);
}
