// Browser-safe: imports nothing from Deno or the database.
// The layout preferences the page paints from its first frame, as attributes and custom
// properties on <html> that static/page_prefs.css reads: composer controls hidden or reordered,
// workspace-panel tabs hidden or reordered, the sidebar's density, the empty state's parts and
// the quota chip. routes/_app.tsx renders them, lib/browser/pages/page_preferences.ts repaints
// them when a setting changes. Invariant: one function (pagePaint) decides both, so the first
// frame and a live change always agree; unknown ids in a stored list are dropped, never painted.

/** The composer footer's controls that can be reordered (`composer_control_order`). */
export const COMPOSER_CONTROLS = [
  "attach",
  "prompts",
  "model",
  "workspace",
  "profile",
  "yolo",
] as const;
export type ComposerControl = typeof COMPOSER_CONTROLS[number];

/** Each `hide_composer_*` preference and the control it hides (`mic`: the dictate button). */
export const COMPOSER_HIDE_KEYS = {
  hide_composer_attach: "attach",
  hide_composer_mic: "mic",
  hide_composer_yolo: "yolo",
  hide_composer_workspace: "workspace",
  hide_composer_model: "model",
} as const;

/** The workspace panel's tabs (components/WorkspacePanel.tsx PANEL_TABS), by id. */
export const PANEL_TAB_IDS = ["files", "git", "terminal"] as const;
export type PanelTabId = typeof PANEL_TAB_IDS[number];

/** The preference keys this paint reads: a change to any of them repaints <html>. */
export const PAINTED_KEYS: readonly string[] = [
  ...Object.keys(COMPOSER_HIDE_KEYS),
  "composer_control_order",
  "hidden_tabs",
  "tab_order",
  "sidebar_density",
  "hide_empty_state_suggestions",
  "hide_empty_state_panel",
  "show_quota_chip",
];

/** What goes on <html>: attributes (undefined = absent) and the inline style's properties. */
export interface PagePaint {
  attrs: Record<string, string | undefined>;
  vars: Record<string, string>;
}

/** The known ids of `list`, first occurrence kept, in its order. */
function knownIds<T extends string>(list: unknown, known: readonly T[]): T[] {
  if (!Array.isArray(list)) return [];
  const out: T[] = [];
  for (const v of list) {
    if (known.includes(v as T) && !out.includes(v as T)) out.push(v as T);
  }
  return out;
}

/** A flex `order` per id: the listed ones first, in their order, then the rest as they were. */
function orderVars(prefix: string, list: unknown, known: readonly string[]) {
  const listed = knownIds(list, known);
  const vars: Record<string, string> = {};
  if (listed.length === 0) return vars;
  const full = [...listed, ...known.filter((id) => !listed.includes(id))];
  full.forEach((id, i) => vars[`--${prefix}-${id}`] = String(i));
  return vars;
}

const words = (list: readonly string[]) => list.length ? list.join(" ") : undefined;

/** The paint for a set of preferences (GET /api/settings's shape; missing keys = defaults). */
export function pagePaint(prefs: Record<string, unknown>): PagePaint {
  const hidden = Object.entries(COMPOSER_HIDE_KEYS)
    .filter(([key]) => prefs[key] === true)
    .map(([, control]) => control);
  // Hiding every tab would leave the panel blank: then none is hidden.
  const hiddenTabs = knownIds(prefs.hidden_tabs, PANEL_TAB_IDS);
  const empty = [
    prefs.hide_empty_state_suggestions === true ? "suggestions" : null,
    prefs.hide_empty_state_panel === true ? "panel" : null,
  ].filter((v): v is string => v !== null);
  return {
    attrs: {
      "data-hide-composer": words(hidden),
      "data-hidden-tabs": hiddenTabs.length < PANEL_TAB_IDS.length ? words(hiddenTabs) : undefined,
      "data-sidebar-density": prefs.sidebar_density === "detailed" ? "detailed" : undefined,
      "data-hide-empty": words(empty),
      "data-quota-chip": prefs.show_quota_chip === true ? "" : undefined,
    },
    vars: {
      ...orderVars("composer-order", prefs.composer_control_order, COMPOSER_CONTROLS),
      ...orderVars("tab-order", prefs.tab_order, PANEL_TAB_IDS),
    },
  };
}

/** The inline style for <html> out of a paint's custom properties (undefined when none). */
export function paintStyle(vars: Record<string, string>): string | undefined {
  const entries = Object.entries(vars);
  return entries.length ? entries.map(([k, v]) => `${k}:${v}`).join(";") : undefined;
}
