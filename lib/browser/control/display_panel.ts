// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded with the
// Control Center's panel scripts (lib/browser/control/control_center.ts), it registers once.
// Appearance › Display and Notifications (components/control/DisplayOptions.tsx): a skin or text
// size is painted on <html> at once and saved (POST /api/settings, then
// `hermes:settings-changed`); a failed save puts the page and the picker back. Turning
// notifications on asks the browser's permission first, in the same click; a refusal leaves
// the switch off and says why.
import { api } from "../api_client.ts";
import { controlLayer, reportError, setStatus } from "../control_panels.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import { fontSizeOf, skinOf } from "../../shared/appearance.ts";
import { t } from "../../i18n/t.ts";

async function save(patch: Record<string, unknown>): Promise<void> {
  const settings = await api<Record<string, unknown>>("POST", "/api/settings", patch);
  emitHermesEvent("hermes:settings-changed", { changed: Object.keys(patch), settings });
}

/**
 * Paint a skin or text size on <html> as routes/_app.tsx renders it from the first frame: the
 * attribute names anything but the default, which is no attribute at all.
 */
function paint(key: "skin" | "font_size", value: string): void {
  const shown = key === "skin" ? skinOf(value) : fontSizeOf(value);
  const attr = key === "skin" ? "data-skin" : "data-font-size";
  if (shown === "default") document.documentElement.removeAttribute(attr);
  else document.documentElement.setAttribute(attr, shown);
}

async function saveDisplay(input: HTMLInputElement, key: "skin" | "font_size"): Promise<void> {
  const block = input.closest("[data-cc-block]");
  const root = document.documentElement;
  const before = key === "skin" ? root.dataset.skin : root.dataset.fontSize;
  paint(key, input.value);
  try {
    await save({ [key]: input.value });
    setStatus(block, "display", t("comfort.displaySaved"), "success");
  } catch (err) {
    paint(key, before ?? "default");
    const back = block?.querySelector<HTMLInputElement>(
      `input[name="${key}"][value="${before ?? "default"}"]`,
    );
    if (back) back.checked = true;
    reportError(block, "display", err);
  }
}

/** Why notifications cannot be turned on here, or null when the browser allows them. */
function blockedReason(permission: NotificationPermission | "unsupported"): string | null {
  if (permission === "unsupported") return t("comfort.notifyUnsupported");
  if (permission === "denied") return t("comfort.notifyDenied");
  if (permission !== "granted") return t("comfort.notifyNotAllowed");
  return null;
}

async function saveNotify(input: HTMLInputElement): Promise<void> {
  const block = input.closest("[data-cc-block]");
  const on = input.checked;
  if (on) {
    // Asked right here, inside the person's click: browsers refuse a prompt from anywhere else.
    const permission = typeof Notification === "undefined"
      ? "unsupported"
      : Notification.permission === "default"
      ? await Notification.requestPermission()
      : Notification.permission;
    const why = blockedReason(permission);
    if (why) {
      input.checked = false;
      setStatus(block, "notify", why, "error");
      return;
    }
  }
  try {
    await save({ notifications_enabled: on });
    setStatus(block, "notify", on ? t("comfort.notifyOn") : t("comfort.notifyOff"), "success");
  } catch (err) {
    input.checked = !on;
    reportError(block, "notify", err);
  }
}

/** The chime beside notifications: a plain switch (no permission to ask). */
async function saveSound(input: HTMLInputElement): Promise<void> {
  const block = input.closest<HTMLElement>("[data-cc-block]");
  if (!block) return;
  const on = input.checked;
  try {
    await save({ sound_enabled: on });
    setStatus(block, "notify", on ? t("comfort.soundOn") : t("comfort.soundOff"), "success");
  } catch (err) {
    input.checked = !on;
    reportError(block, "notify", err);
  }
}

function init(): void {
  document.addEventListener("change", (e) => {
    const input = e.target as HTMLInputElement;
    const key = input.dataset?.displaySetting;
    if (!key || !controlLayer()?.contains(input)) return;
    if (key === "skin" || key === "font_size") void saveDisplay(input, key);
    else if (key === "notifications_enabled") void saveNotify(input);
    else if (key === "sound_enabled") void saveSound(input);
  });
}

if (typeof document !== "undefined") init();
