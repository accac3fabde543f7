// The Control Center: ONE modal for the console's global settings, opened from the sidebar
// footer (seed ARCHITECTURE §1). Tabs on the left (a strip on phones): the open conversation,
// appearance, preferences, the agent's providers, profiles and extensions (MCP servers, skills,
// memory, saved prompts), scheduled tasks, share links and the system. Served as an HTML fragment by /partials/control-center (fresh
// data at every opening, one panel at a time after a change) and driven by
// lib/browser/pages/control_center.ts + lib/browser/control/extensions_panel.ts.
import { type ComponentChildren, Fragment } from "preact";
import type { AppContext } from "../lib/server/app_context.ts";
import { getSettings } from "../lib/settings/settings.ts";
import { Icon } from "./Icon.tsx";
import { type AppearanceData, AppearancePanel } from "./control/AppearancePanel.tsx";
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

/** The tabs in order; `group` starts a labelled group in the tab list. */
export const CONTROL_TABS = [
  { id: "conversation", label: "Conversation" },
  { id: "appearance", label: "Appearance" },
  { id: "preferences", label: "Preferences" },
  { id: "providers", label: "Providers", group: "Agent" },
  { id: "profiles", label: "Profiles" },
  { id: "mcp", label: "MCP servers" },
  { id: "skills", label: "Skills" },
  { id: "memory", label: "Memory" },
  { id: "prompts", label: "Prompts" },
  { id: "tasks", label: "Tasks" },
  { id: "sharing", label: "Sharing" },
  { id: "logs", label: "Logs" },
  { id: "system", label: "System", group: "" },
] as const;

export type ControlTab = typeof CONTROL_TABS[number]["id"];

export function isControlTab(v: unknown): v is ControlTab {
  return CONTROL_TABS.some((t) => t.id === v);
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
    appearance: () => {
      const s = settings();
      return { theme: s.theme, show_thinking: s.show_thinking };
    },
    preferences: () => loadPreferences(app, settings()),
    providers: () => loadProviders(app, settings()),
    profiles: () => loadProfiles(app, q.profileEdit ?? null),
    prompts: () => loadPrompts(app, q.promptEdit ?? null),
    mcp: () => loadMcp(app, q.mcpEdit),
    skills: () => loadSkills(app, q.skillEdit),
    memory: () => loadMemory(app),
    tasks: () => loadTasks(app, q.taskEdit ?? null, q.taskHistory ?? null),
    logs: () => loadLogs(app, q.logLevel ?? null, q.logQuery ?? null),
    sharing: () => loadShares(app),
    system: () => loadSystem(app, settings()),
  };
  return await load[tab]() as ControlCenterData[T];
}

/** Every panel's data, for the whole dialog. */
export async function loadControlCenter(
  app: AppContext,
  q: ControlCenterQuery,
): Promise<ControlCenterData> {
  const entries = await Promise.all(
    CONTROL_TABS.map(async (t) => [t.id, await loadControlPanel(app, t.id, q)] as const),
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
          <h2 class="cc-title" id="cc-title">Hermes Console</h2>
          <button
            type="button"
            class="btn btn-icon cc-close"
            data-cc-close
            aria-label="Close"
            title="Close (Esc)"
          >
            <Icon name="x" />
          </button>
        </header>
        <div class="cc-body">
          <div class="cc-tabs" role="tablist" aria-orientation="vertical" aria-label="Settings">
            {CONTROL_TABS.map((t) => (
              <Fragment key={t.id}>
                {"group" in t
                  ? (
                    <span class="cc-tab-group" role="presentation">
                      {t.group}
                    </span>
                  )
                  : null}
                <button
                  type="button"
                  role="tab"
                  class="cc-tab"
                  id={`cc-tab-${t.id}`}
                  aria-controls={`cc-panel-${t.id}`}
                  aria-selected={t.id === tab ? "true" : "false"}
                  tabindex={t.id === tab ? 0 : -1}
                  data-cc-tab={t.id}
                >
                  {t.label}
                </button>
              </Fragment>
            ))}
          </div>
          <div class="cc-panels">
            {CONTROL_TABS.map((t) => (
              <section
                key={t.id}
                class="cc-panel"
                role="tabpanel"
                id={`cc-panel-${t.id}`}
                aria-labelledby={`cc-tab-${t.id}`}
                hidden={t.id !== tab}
                data-cc-panel={t.id}
              >
                <h3 class="cc-panel-title">{t.label}</h3>
                <div class="cc-panel-body" data-cc-section={t.id}>
                  <ControlPanel tab={t.id} data={data[t.id]} />
                </div>
              </section>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
