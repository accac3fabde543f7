// Control Center › Preferences, below the form: how the page is laid out and behaves. Composer
// controls (hide each, reorder them), the workspace panel's tabs (show, reorder), the sidebar
// (density, task sessions, how many pins), the new-chat screen, a long paste, the quota chip,
// switching workspace and title refresh. Each change saves at once (lib/browser/control/
// layout_panel.ts) and repaints the open page (lib/browser/pages/page_preferences.ts).
import {
  COMPOSER_CONTROLS,
  COMPOSER_HIDE_KEYS,
  type ComposerControl,
  PANEL_TAB_IDS,
  type PanelTabId,
} from "../../lib/shared/page_preferences.ts";
import { t } from "../../lib/i18n/t.ts";
import { Field, Section, StatusLine, SwitchField } from "./parts.tsx";

export interface LayoutOptionsData {
  hidden: Record<keyof typeof COMPOSER_HIDE_KEYS, boolean>;
  composerOrder: ComposerControl[];
  hiddenTabs: PanelTabId[];
  tabOrder: PanelTabId[];
  switches: Record<(typeof SWITCHES)[number]["key"], boolean>;
  sidebarDensity: "compact" | "detailed";
  pinnedLimit: number;
  titleRefresh: string;
}

/** The plain on/off preferences, each with its label and hint (catalog keys). */
const SWITCHES = [
  { key: "large_text_paste_as_attachment", block: "composer" },
  { key: "show_quota_chip", block: "composer" },
  { key: "new_chat_on_workspace_switch", block: "workspace" },
  { key: "show_cron_sessions", block: "sidebar" },
  { key: "hide_empty_state_suggestions", block: "empty" },
  { key: "hide_empty_state_panel", block: "empty" },
] as const;

/** A stored list in full: its known ids in its order, then the rest in their usual order. */
function fullOrder<T extends string>(list: unknown, known: readonly T[]): T[] {
  const listed = Array.isArray(list) ? known.filter((id) => list.includes(id)) : [];
  listed.sort((a, b) => (list as string[]).indexOf(a) - (list as string[]).indexOf(b));
  return [...listed, ...known.filter((id) => !listed.includes(id))];
}

/** The options out of the settings (GET /api/settings's shape). */
export function layoutOptionsOf(s: Record<string, unknown>): LayoutOptionsData {
  const hidden = {} as LayoutOptionsData["hidden"];
  for (const key of Object.keys(COMPOSER_HIDE_KEYS) as Array<keyof typeof COMPOSER_HIDE_KEYS>) {
    hidden[key] = s[key] === true;
  }
  const switches = {} as LayoutOptionsData["switches"];
  for (const { key } of SWITCHES) switches[key] = s[key] === true;
  return {
    hidden,
    composerOrder: fullOrder(s.composer_control_order, COMPOSER_CONTROLS),
    hiddenTabs: PANEL_TAB_IDS.filter((id) =>
      Array.isArray(s.hidden_tabs) && s.hidden_tabs.includes(id)
    ),
    tabOrder: fullOrder(s.tab_order, PANEL_TAB_IDS),
    switches,
    sidebarDensity: s.sidebar_density === "detailed" ? "detailed" : "compact",
    pinnedLimit: typeof s.pinned_sessions_limit === "number" ? s.pinned_sessions_limit : 3,
    titleRefresh: typeof s.auto_title_refresh_every === "string" ? s.auto_title_refresh_every : "0",
  };
}

const label = (id: string) => t(`prefs.control_${id}`);

/**
 * A reorderable list: each row moves up or down; `checks` adds a "shown" box per row (the
 * panel's tabs). The list's preference key and each row's id are the script's hooks.
 */
function OrderList(
  { pref, ids, checks }: { pref: string; ids: readonly string[]; checks?: { hidden: string[] } },
) {
  return (
    <>
      <p class="cc-label cc-order-label" id={`cc-order-${pref}`}>{t(`prefs.${pref}`)}</p>
      <ol class="cc-order" data-order-pref={pref} aria-labelledby={`cc-order-${pref}`}>
        {ids.map((id, i) => (
          <li key={id} class="cc-order-item" data-order-id={id}>
            {checks
              ? (
                <label class="cc-order-check">
                  <input
                    type="checkbox"
                    data-tab-shown={id}
                    checked={!checks.hidden.includes(id)}
                  />
                  <span>{label(id)}</span>
                </label>
              )
              : <span class="cc-order-name">{label(id)}</span>}
            <button
              type="button"
              class="btn btn-icon cc-order-move"
              data-order-move="up"
              disabled={i === 0}
              aria-label={t("prefs.moveUp", { name: label(id) })}
            >
              ↑
            </button>
            <button
              type="button"
              class="btn btn-icon cc-order-move"
              data-order-move="down"
              disabled={i === ids.length - 1}
              aria-label={t("prefs.moveDown", { name: label(id) })}
            >
              ↓
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}

function Switches({ data, block }: { data: LayoutOptionsData; block: string }) {
  return (
    <>
      {SWITCHES.filter((s) => s.block === block).map(({ key }) => (
        <SwitchField
          key={key}
          checked={data.switches[key]}
          label={t(`prefs.${key}`)}
          hint={t(`prefs.${key}Hint`)}
          hooks={{ "data-pref": key }}
        />
      ))}
    </>
  );
}

export function LayoutOptions({ data }: { data: LayoutOptionsData }) {
  return (
    <div class="cc-layout-options" data-cc-layout>
      <Section
        hook="composer-controls"
        title={t("prefs.composerControls")}
        description={`${t("prefs.composerControlsHint")} ${t("prefs.hideHint")}`}
      >
        <div class="cc-switch-stack">
          {(Object.keys(COMPOSER_HIDE_KEYS) as Array<keyof typeof COMPOSER_HIDE_KEYS>).map((
            key,
          ) => (
            <SwitchField
              key={key}
              checked={data.hidden[key]}
              label={t(`prefs.${key}`)}
              hint=""
              hooks={{ "data-pref": key }}
            />
          ))}
        </div>
        <OrderList pref="composer_control_order" ids={data.composerOrder} />
        <Switches data={data} block="composer" />
        <StatusLine hook="composer-controls" />
      </Section>
      <Section
        hook="panel-tabs"
        title={t("prefs.panelTabs")}
        description={t("prefs.panelTabsHint")}
      >
        <OrderList pref="tab_order" ids={data.tabOrder} checks={{ hidden: data.hiddenTabs }} />
        <Switches data={data} block="workspace" />
        <StatusLine hook="panel-tabs" />
      </Section>
      <SidebarOptions data={data} />
      <Section hook="empty-state" title={t("prefs.emptyState")}>
        <Switches data={data} block="empty" />
        <Field
          id="cc-title-refresh"
          label={t("prefs.auto_title_refresh_every")}
          hint={t("prefs.auto_title_refresh_everyHint")}
        >
          <select id="cc-title-refresh" class="cc-input" data-pref="auto_title_refresh_every">
            {["0", "5", "10", "20"].map((n) => (
              <option key={n} value={n} selected={data.titleRefresh === n}>
                {n === "0"
                  ? t("prefs.titleRefreshOff")
                  : t("prefs.titleRefreshEvery", { count: Number(n) })}
              </option>
            ))}
          </select>
        </Field>
        <StatusLine hook="empty-state" />
      </Section>
    </div>
  );
}

function SidebarOptions({ data }: { data: LayoutOptionsData }) {
  return (
    <Section hook="sidebar-prefs" title={t("prefs.sidebar")}>
      <fieldset class="cc-choice" data-cc-density>
        <legend class="cc-choice-legend">{t("prefs.sidebar_density")}</legend>
        {(["compact", "detailed"] as const).map((d) => (
          <label key={d} class="cc-choice-item">
            <input
              type="radio"
              name="sidebar_density"
              value={d}
              data-pref="sidebar_density"
              checked={data.sidebarDensity === d}
            />
            <span class="cc-choice-text">
              <span class="cc-choice-label">{t(`prefs.density_${d}`)}</span>
              <span class="cc-choice-hint">{t(`prefs.density_${d}Hint`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Switches data={data} block="sidebar" />
      <Field
        id="cc-pinned-limit"
        label={t("prefs.pinned_sessions_limit")}
        hint={t("prefs.pinned_sessions_limitHint")}
      >
        <input
          id="cc-pinned-limit"
          class="cc-input cc-input-short"
          type="number"
          min="1"
          max="99"
          step="1"
          value={String(data.pinnedLimit)}
          data-pref="pinned_sessions_limit"
        />
      </Field>
      <StatusLine hook="sidebar-prefs" />
    </Section>
  );
}
