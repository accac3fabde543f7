// The Control Center: ONE modal for the console's global settings, opened from the sidebar
// footer (seed ARCHITECTURE §1). Tabs on the left (a strip on phones): the open conversation,
// appearance, preferences, the agent's providers, profiles and extensions (MCP servers, skills,
// memory, saved prompts), scheduled tasks, share links, standing approvals and the system.
// Served as an HTML fragment by /partials/control-center (fresh data at every opening, one panel
// at a time after a change) and driven by lib/browser/pages/control_center.ts +
// lib/browser/control/extensions_panel.ts.
import { type ComponentChildren, Fragment } from "preact";
import type { AppContext } from "../lib/server/app_context.ts";
import { getSettings } from "../lib/settings/settings.ts";
import { t } from "../lib/i18n/t.ts";
import { Icon } from "./Icon.tsx";
import { type AppearanceData, AppearancePanel } from "./control/AppearancePanel.tsx";
import { displayOptionsOf } from "./control/DisplayOptions.tsx";
import { transcriptOptionsOf } from "./control/TranscriptOptions.tsx";
import {
  type ConversationData,
  ConversationPanel,
  loadConversation,
} from "./control/ConversationPanel.tsx";
import { loadMcp, type McpData, McpPanel } from "./control/McpPanel.tsx";
import { loadMemory, type MemoryData, MemoryPanel } from "./control/MemoryPanel.tsx";
import {
  loadPreferences,
  type PreferencesData,
  PreferencesPanel,
} from "./control/PreferencesPanel.tsx";
import { loadProviders, type ProvidersData, ProvidersPanel } from "./control/ProvidersPanel.tsx";
import { loadSkills, type SkillsData, SkillsPanel } from "./control/SkillsPanel.tsx";
import { loadSystem, type SystemData, SystemPanel } from "./control/SystemPanel.tsx";
import { loadTasks, type TasksData, TasksPanel } from "./control/TasksPanel.tsx";
import { loadLogs, type LogsData, LogsPanel } from "./control/LogsPanel.tsx";
import { loadProfiles, type ProfilesData, ProfilesPanel } from "./control/ProfilesPanel.tsx";
import { loadPrompts, type PromptsData, PromptsPanel } from "./control/PromptsPanel.tsx";
import { loadShares, type SharesData, SharesPanel } from "./control/SharesPanel.tsx";
import {
  loadStandingRules,
  type StandingRulesData,
  StandingRulesPanel,
} from "./control/StandingRulesPanel.tsx";

/**
 * The tabs in order; `groupKey` starts a labelled group in the tab list (unlabelled when empty).
 * `labelKey` and `groupKey` are catalog keys (lib/i18n), resolved when the dialog renders.
 */
export const CONTROL_TABS = [
  { id: "conversation", labelKey: "control.tabConversation" },
  { id: "appearance", labelKey: "control.tabAppearance" },
  { id: "preferences", labelKey: "control.tabPreferences" },
  { id: "providers", labelKey: "control.tabProviders", groupKey: "control.groupAgent" },
  { id: "profiles", labelKey: "control.tabProfiles" },
  { id: "mcp", labelKey: "control.tabMcp" },
  { id: "skills", labelKey: "control.tabSkills" },
  { id: "memory", labelKey: "control.tabMemory" },
  { id: "prompts", labelKey: "control.tabPrompts" },
  { id: "tasks", labelKey: "control.tabTasks" },
  { id: "sharing", labelKey: "control.tabSharing" },
  { id: "rules", labelKey: "approval_rules.tab" },
  { id: "logs", labelKey: "control.tabLogs" },
  { id: "system", labelKey: "control.tabSystem", groupKey: "" },
] as const;

export type ControlTab = typeof CONTROL_TABS[number]["id"];

export function isControlTab(v: unknown): v is ControlTab {
  return CONTROL_TABS.some((tab) => tab.id === v);
}

export interface ControlCenterData {
  conversation: ConversationData;
  appearance: AppearanceData;
  preferences: PreferencesData;
  providers: ProvidersData;
  profiles: ProfilesData;
  prompts: PromptsData;
  mcp: McpData;
  skills: SkillsData;
  memory: MemoryData;
  tasks: TasksData;
  logs: LogsData;
  sharing: SharesData;
  rules: StandingRulesData;
  system: SystemData;
}

/** What the fragment was asked for (query parameters of /partials/control-center). */
export interface ControlCenterQuery {
  /** The conversation open in the page (`session`). */
  sessionId: string | null;
  /** MCP server whose form is open (`mcp`): a name, "" for a new one, null for none. */
  mcpEdit: string | null;
  /** Skill whose editor is open (`skill`): a name, "" for a new one, null for none. */
  skillEdit: string | null;
  /** Scheduled task whose form is open (`task`): an id, "" for a new one, null for none. */
  taskEdit?: string | null;
  /** Scheduled task whose history is open (`history`). */
  taskHistory?: string | null;
  /** The Logs panel's filters (`log_level`, `log_q`). */
  logLevel?: string | null;
  logQuery?: string | null;
  /** Profile whose form is open (`profile`): a name, "" for a new one, null for none. */
  profileEdit?: string | null;
  /** Saved prompt whose form is open (`prompt`): a name, "" for a new one, null for none. */
  promptEdit?: string | null;
}

/** Load one panel's data (a panel refreshed after a change needs only its own). */
export async function loadControlPanel<T extends ControlTab>(
  app: AppContext,
  tab: T,
  q: ControlCenterQuery,
): Promise<ControlCenterData[T]> {
  const settings = () => getSettings(app.db, app.config);
  const load: { [K in ControlTab]: () => Promise<ControlCenterData[K]> | ControlCenterData[K] } = {
    conversation: () => loadConversation(app, q.sessionId),
    appearance: async () => {
      const s = await settings();
      const language = typeof s.language === "string" ? s.language : "auto";
      return {
        theme: s.theme,
        show_thinking: s.show_thinking,
        language,
        transcript: transcriptOptionsOf(s),
        ...displayOptionsOf(s),
      };
    },
    preferences: async () => loadPreferences(app, await settings()),
    providers: async () => loadProviders(app, await settings()),
    profiles: () => loadProfiles(app, q.profileEdit ?? null),
    prompts: () => loadPrompts(app, q.promptEdit ?? null),
    mcp: () => loadMcp(app, q.mcpEdit),
    skills: () => loadSkills(app, q.skillEdit),
    memory: () => loadMemory(app),
    tasks: () => loadTasks(app, q.taskEdit ?? null, q.taskHistory ?? null),
    logs: () => loadLogs(app, q.logLevel ?? null, q.logQuery ?? null),
    sharing: () => loadShares(app),
    rules: () => loadStandingRules(app),
    system: async () => loadSystem(app, await settings()),
  };
  return await load[tab]() as ControlCenterData[T];
}

/** Every panel's data, for the whole dialog. */
export async function loadControlCenter(
  app: AppContext,
  q: ControlCenterQuery,
): Promise<ControlCenterData> {
  const entries = await Promise.all(
    CONTROL_TABS.map(async (tab) => [tab.id, await loadControlPanel(app, tab.id, q)] as const),
  );
  return Object.fromEntries(entries) as unknown as ControlCenterData;
}

/** One panel's content (what a refresh swaps into `[data-cc-section]`). */
export function ControlPanel<T extends ControlTab>(
  { tab, data }: { tab: T; data: ControlCenterData[T] },
) {
  const panels: { [K in ControlTab]: (d: ControlCenterData[K]) => ComponentChildren } = {
    conversation: (d) => <ConversationPanel data={d} />,
    appearance: (d) => <AppearancePanel data={d} />,
    preferences: (d) => <PreferencesPanel data={d} />,
    providers: (d) => <ProvidersPanel data={d} />,
    profiles: (d) => <ProfilesPanel data={d} />,
    prompts: (d) => <PromptsPanel data={d} />,
    mcp: (d) => <McpPanel data={d} />,
    skills: (d) => <SkillsPanel data={d} />,
    memory: (d) => <MemoryPanel data={d} />,
    tasks: (d) => <TasksPanel data={d} />,
    logs: (d) => <LogsPanel data={d} />,
    sharing: (d) => <SharesPanel data={d} />,
    rules: (d) => <StandingRulesPanel data={d} />,
    system: (d) => <SystemPanel data={d} />,
  };
  return <>{panels[tab](data)}</>;
}

export function ControlCenter({ data, tab }: { data: ControlCenterData; tab: ControlTab }) {
  return (
    <div class="cc-layer" data-cc-layer hidden>
      <div class="cc-scrim" data-cc-close aria-hidden="true" />
      <div
        class="cc-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="cc-title"
        tabindex={-1}
        data-cc-dialog
      >
        <header class="cc-head">
          <span class="brand-mark" aria-hidden="true">H</span>
          <h2 class="cc-title" id="cc-title">{t("common.appName")}</h2>
          <button
            type="button"
            class="btn btn-icon cc-close"
            data-cc-close
            aria-label={t("common.close")}
            title={t("control.closeEsc")}
          >
            <Icon name="x" />
          </button>
        </header>
        <div class="cc-body">
          <div
            class="cc-tabs"
            role="tablist"
            aria-orientation="vertical"
            aria-label={t("control.settings")}
          >
            {CONTROL_TABS.map((item) => (
              <Fragment key={item.id}>
                {"groupKey" in item
                  ? (
                    <span class="cc-tab-group" role="presentation">
                      {item.groupKey ? t(item.groupKey) : ""}
                    </span>
                  )
                  : null}
                <button
                  type="button"
                  role="tab"
                  class="cc-tab"
                  id={`cc-tab-${item.id}`}
                  aria-controls={`cc-panel-${item.id}`}
                  aria-selected={item.id === tab ? "true" : "false"}
                  tabindex={item.id === tab ? 0 : -1}
                  data-cc-tab={item.id}
                >
                  {t(item.labelKey)}
                </button>
              </Fragment>
            ))}
          </div>
          <div class="cc-panels">
            {CONTROL_TABS.map((item) => (
              <section
                key={item.id}
                class="cc-panel"
                role="tabpanel"
                id={`cc-panel-${item.id}`}
                aria-labelledby={`cc-tab-${item.id}`}
                hidden={item.id !== tab}
                data-cc-panel={item.id}
              >
                <h3 class="cc-panel-title">{t(item.labelKey)}</h3>
                <div class="cc-panel-body" data-cc-section={item.id}>
                  <ControlPanel tab={item.id} data={data[item.id]} />
                </div>
              </section>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
