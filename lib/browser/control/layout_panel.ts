// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded with the
// Control Center's panel scripts (lib/browser/control/control_center.ts), it registers once.
// Preferences › layout options (components/control/LayoutOptions.tsx): a switch, a radio, a
// select or a number saves its one key at once; the ↑/↓ buttons move a row of an order list and
// save the whole list; a tab's "shown" box saves `hidden_tabs`. Every save answers with the
// settings and tells the page (`hermes:settings-changed`), which repaints itself; a failed save
// puts the control back and says why.
import { api } from "../api_client.ts";
import { controlLayer, reportError, setStatus } from "../control_panels.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import { t } from "../../i18n/t.ts";

async function save(block: Element | null, patch: Record<string, unknown>): Promise<boolean> {
  const hook = block?.getAttribute("data-cc-block") ?? "";
  try {
    const settings = await api<Record<string, unknown> & { ignored?: string[] }>(
      "POST",
      "/api/settings",
      patch,
    );
    if (settings.ignored?.length) {
      setStatus(block, hook, t("prefs.refused"), "error");
      return false;
    }
    emitHermesEvent("hermes:settings-changed", { changed: Object.keys(patch), settings });
    setStatus(block, hook, t("prefs.saved"), "success");
    return true;
  } catch (err) {
    reportError(block, hook, err);
    return false;
  }
}

/** One control's value as its preference wants it. */
function valueOf(el: HTMLInputElement | HTMLSelectElement): unknown {
  if (el instanceof HTMLInputElement && el.type === "checkbox") return el.checked;
  if (el instanceof HTMLInputElement && el.type === "number") return Number(el.value);
  return el.value;
}

async function saveControl(el: HTMLInputElement | HTMLSelectElement): Promise<void> {
  const key = el.dataset.pref!;
  const block = el.closest("[data-cc-block]");
  const ok = await save(block, { [key]: valueOf(el) });
  if (ok || !(el instanceof HTMLInputElement)) return;
  if (el.type === "checkbox") el.checked = !el.checked;
}

const idsOf = (list: Element) =>
  [...list.querySelectorAll<HTMLElement>("[data-order-id]")].map((li) => li.dataset.orderId!);

/** The ↑/↓ buttons follow the rows' places (first cannot rise, last cannot sink). */
function refreshMoves(list: Element): void {
  const rows = [...list.querySelectorAll<HTMLElement>("[data-order-id]")];
  rows.forEach((row, i) => {
    const up = row.querySelector<HTMLButtonElement>('[data-order-move="up"]');
    const down = row.querySelector<HTMLButtonElement>('[data-order-move="down"]');
    if (up) up.disabled = i === 0;
    if (down) down.disabled = i === rows.length - 1;
  });
}

async function move(button: HTMLButtonElement): Promise<void> {
  const row = button.closest<HTMLElement>("[data-order-id]");
  const list = row?.closest<HTMLElement>("[data-order-pref]");
  if (!row || !list) return;
  const before = idsOf(list);
  const sibling = button.dataset.orderMove === "up"
    ? row.previousElementSibling
    : row.nextElementSibling?.nextElementSibling ?? null;
  if (button.dataset.orderMove === "up" && !sibling) return;
  list.insertBefore(row, sibling);
  refreshMoves(list);
  button.focus();
  const ok = await save(list.closest("[data-cc-block]"), {
    [list.dataset.orderPref!]: idsOf(list),
  });
  if (ok) return;
  for (const id of before) {
    const li = list.querySelector(`[data-order-id="${id}"]`);
    if (li) list.append(li);
  }
  refreshMoves(list);
}

async function saveShownTabs(box: HTMLInputElement): Promise<void> {
  const list = box.closest<HTMLElement>("[data-order-pref]");
  if (!list) return;
  const boxes = [...list.querySelectorAll<HTMLInputElement>("[data-tab-shown]")];
  if (boxes.every((b) => !b.checked)) {
    // The panel needs one view: the last shown tab stays.
    box.checked = true;
    setStatus(list.closest("[data-cc-block]"), "panel-tabs", t("prefs.oneTabStays"), "error");
    return;
  }
  const hidden = boxes.filter((b) => !b.checked).map((b) => b.dataset.tabShown!);
  const ok = await save(list.closest("[data-cc-block]"), { hidden_tabs: hidden });
  if (!ok) box.checked = !box.checked;
}

function init(): void {
  document.addEventListener("change", (e) => {
    const el = e.target as HTMLInputElement | HTMLSelectElement;
    if (!el?.closest?.("[data-cc-layout]") || !controlLayer()?.contains(el)) return;
    if (el.dataset.tabShown) void saveShownTabs(el as HTMLInputElement);
    else if (el.dataset.pref) void saveControl(el);
  });
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest?.("[data-order-move]");
    if (button?.closest("[data-cc-layout]")) void move(button as HTMLButtonElement);
  });
}

if (typeof document !== "undefined") init();
