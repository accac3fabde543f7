// Browser-safe: imports nothing from Deno or the database.
// The transcript's display preferences in the page: read from the attributes routes/_app.tsx
// painted on <html> (lib/shared/transcript_display.ts), repainted on each save
// (`hermes:settings-changed`), and mirrored in a signal the islands render from (the Activity
// mode, tool cards opened, terminal output opening its card). Features with code of their own
// (badges, outline, jump buttons, user markdown, busy hint) load on first use only.
import { signal } from "@preact/signals";
import {
  type ActivityMode,
  activityModeOf,
  TRANSCRIPT_DISPLAY_ATTRS,
  TRANSCRIPT_DISPLAY_KEYS,
  transcriptDisplayAttrs,
} from "../shared/transcript_display.ts";
import { onHermesEvent } from "../shared/ui_events.ts";

/** What the islands need to know, as of the last paint. */
export interface IslandDisplay {
  activityMode: ActivityMode;
  /** `simplified_tool_calling` off: each turn's Activity starts open. */
  expandedTools: boolean;
  /** `terminal_auto_expand_on_output`: a terminal call's output opens its card live. */
  terminalAutoExpand: boolean;
}

const root = () => typeof document === "undefined" ? null : document.documentElement;

function readIslandDisplay(): IslandDisplay {
  const html = root();
  return {
    activityMode: activityModeOf(html?.dataset.activityMode),
    expandedTools: !!html?.hasAttribute("data-expanded-tools"),
    terminalAutoExpand: !!html?.hasAttribute("data-terminal-auto-expand"),
  };
}

/** The islands' view of the preferences (server renders see the defaults). */
export const islandDisplay = signal<IslandDisplay>(readIslandDisplay());

/** Whether the preference painted as `attr` is on in the page now. */
export function displayOn(attr: string): boolean {
  return !!root()?.hasAttribute(attr);
}

/** Paint a settings answer's display preferences on <html> (what _app.tsx renders from). */
export function paintTranscriptDisplay(settings: Record<string, unknown>): void {
  const html = root();
  if (!html) return;
  const attrs = transcriptDisplayAttrs(settings);
  for (const name of TRANSCRIPT_DISPLAY_ATTRS) {
    if (name in attrs) html.setAttribute(name, attrs[name]);
    else html.removeAttribute(name);
  }
  islandDisplay.value = readIslandDisplay();
}

/** The feature modules, each loaded once a page shows it. */
const FEATURES: Array<{ attrs: string[]; load: () => Promise<{ refresh(): void }> }> = [
  {
    attrs: ["data-show-token-usage", "data-show-tps"],
    load: () => import("./turn_badges.ts"),
  },
  { attrs: ["data-show-outline"], load: () => import("./conversation_outline.ts") },
  { attrs: ["data-session-jump"], load: () => import("./session_jump.ts") },
  { attrs: ["data-user-markdown"], load: () => import("./user_markdown.ts") },
  { attrs: ["data-busy-hint"], load: () => import("./busy_hint.ts") },
];

const loaded = new Map<number, Promise<{ refresh(): void }>>();

/** Load and refresh each feature that is on, refresh the loaded ones that went off. */
function syncFeatures(): void {
  FEATURES.forEach((f, i) => {
    const on = f.attrs.some(displayOn);
    if (!on && !loaded.has(i)) return;
    let mod = loaded.get(i);
    if (!mod) {
      mod = f.load();
      loaded.set(i, mod);
    }
    mod.then((m) => m.refresh(), () => loaded.delete(i));
  });
}

/** Follow saves from now on (lib/browser/pages/chat_chrome.ts calls it once). */
export function installTranscriptDisplay(): void {
  onHermesEvent("hermes:settings-changed", ({ settings, changed }) => {
    if (!changed.some((k) => TRANSCRIPT_DISPLAY_KEYS.includes(k))) return;
    paintTranscriptDisplay(settings);
    syncFeatures();
    // The older-turns loader and the follow read the attributes as they act: nothing to redo.
  });
  syncFeatures();
}
