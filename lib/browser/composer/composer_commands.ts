// Browser-safe: imports nothing from Deno or the database.
// What each slash command the composer runs itself does (agent commands like /use are sent as
// messages instead): the API call, then the draft, flash, panel or page change that follows.
// Invariants: a command that needs a chat says so instead of creating one; the server's answer
// wins for switches (/yolo, /network); a failure is thrown for the composer to show.
import type { ReadonlySignal, Signal } from "@preact/signals";
import type { ArgSource, SlashCommand } from "../slash_commands.ts";
import type { ArgChoice } from "./slash_menu_model.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import type { AgentPanel } from "./agent_commands.ts";
import type { ChatStartKind, StartAnswer } from "./chat_start.ts";
import type { MessageMode, MessageModes } from "./message_mode.ts";
import type { SideRuns } from "./side_runs.ts";
import { runSideCommand } from "./side_commands.ts";
import { t } from "../../i18n/t.ts";

export type { AgentPanel };

/** /goal, /personality and /prompt, loaded on first use (they stay out of the first load). */
const agentCommands = () => import("./agent_commands.ts");
/** /reasoning and /title without text, loaded on first use. */
const sessionExtras = () => import("./session_extras.ts");

/** A quiet popover over the composer: /help, /usage, the /yolo warning, /reload-mcp's result. */
export type CommandPanel =
  | { kind: "help" }
  | { kind: "usage"; session: Record<string, unknown> }
  | { kind: "yolo" }
  | { kind: "mcp"; servers: Array<Record<string, unknown>> };

export type PanelState = CommandPanel | AgentPanel;

/** True for the panels components/composer/AgentPanel.tsx draws. */
export const isAgentPanel = (p: PanelState): p is AgentPanel =>
  p.kind === "prompt" || p.kind === "personality" || p.kind === "notice";

export type { ChatStartKind, StartAnswer } from "./chat_start.ts";

/** The browser effects a command may have (injectable so tests run without a page). */
export interface CommandDeps {
  api<T = Record<string, unknown>>(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
  ): Promise<T>;
  navigate(url: string): void;
  reload(): void;
  setTitle(title: string): void;
  writeDraft(sessionId: string | null, text: string): void;
}

/** The part of the composer model a command acts on. */
export interface CommandHost {
  /** What Send does while an answer runs (lib/browser/composer/message_mode.ts). */
  readonly modes: MessageModes;
  /** `/btw` and `/background` (lib/browser/composer/side_runs.ts). */
  readonly side: SideRuns;
  /** Send `text` now in mode `how` while an answer runs. */
  sendWhileBusy(text: string, how: MessageMode): Promise<void>;
  /** The session the page was rendered for (its draft key), not the one created since. */
  readonly sessionId: string | null;
  readonly projectId: string | null;
  readonly deps: CommandDeps;
  sid: ReadonlySignal<string | null>;
  panel: Signal<PanelState | null>;
  yolo: Signal<boolean>;
  network: Signal<boolean>;
  argChoices: ReadonlySignal<Partial<Record<ArgSource, ArgChoice[]>>>;
  replaceDraft(text: string): void;
  showFlash(text: string): void;
  /** Focus the textarea. */
  focus(): void;
  /** Send `text` as a message now (a mode command given text while nothing runs). */
  send(text: string): Promise<void>;
  /** Open an agent popover (/prompt's form, the /personality list); null closes it. */
  showPanel(panel: AgentPanel | null): void;
  ensureSession(): Promise<{ session_id: string }>;
  announceStart(started: StartAnswer, text: string, kind: ChatStartKind): void;
  stop(): Promise<void>;
  chooseModel(id: string, provider: string | null): Promise<void>;
  chooseWorkspace(path: string): Promise<void>;
  openPopover(which: "model" | "workspace"): void;
}

function needSession(host: CommandHost, c: SlashCommand): string {
  const id = host.sid.value;
  if (!id) throw new Error(t("composer.needsChat", { command: `/${c.name}` }));
  return id;
}

/** Flip a per-session switch (`POST /api/session/<route>`); the server's answer wins. */
async function flipSessionSwitch(host: CommandHost, route: string, field: string, on: boolean) {
  const s = await host.ensureSession();
  const res = await host.deps.api<Record<string, boolean>>("POST", `/api/session/${route}`, {
    session_id: s.session_id,
    enabled: !on,
  });
  return { session_id: s.session_id, on: res[field] === true };
}

/** After /clear or /undo: the transcript re-renders, or the page reloads. */
function afterRewrite(host: CommandHost, id: string, reason: "clear" | "undo") {
  emitHermesEvent("hermes:sessions-changed", { session_id: id, reason });
  if (
    emitHermesEvent("hermes:session-rewritten", { session_id: id, reason }, { cancelable: true })
  ) {
    if (id === host.sessionId) host.deps.reload();
    else host.deps.navigate(`/?session=${encodeURIComponent(id)}`);
  }
}

/** Session commands: those that act on the chat's transcript or its runs. */
async function runSessionCommand(
  host: CommandHost,
  c: SlashCommand,
  arg = "",
): Promise<boolean> {
  const { api, writeDraft } = host.deps;
  const done = () => host.replaceDraft("");
  switch (c.name) {
    case "clear": {
      const id = needSession(host, c);
      await api("POST", "/api/session/clear", { session_id: id });
      done();
      writeDraft(host.sessionId, "");
      afterRewrite(host, id, "clear");
      return true;
    }
    case "undo": {
      const id = needSession(host, c);
      const res = await api<{ removed_count: number; text: unknown }>(
        "POST",
        "/api/session/undo",
        { session_id: id },
      );
      if (!res.removed_count) {
        done();
        host.showFlash(t("composer.nothingToUndo"));
        return true;
      }
      const text = typeof res.text === "string" ? res.text : "";
      host.replaceDraft(text);
      writeDraft(host.sessionId, text);
      afterRewrite(host, id, "undo");
      return true;
    }
    case "retry":
    case "compress": {
      const id = needSession(host, c);
      // `/compress <focus>`: the topic the summary keeps in detail (sync: false keeps it a run).
      // `run: true`: retry runs the message again itself (the original's retry only rewinds).
      const focus = c.name === "compress" && arg ? { focus_topic: arg, sync: false } : {};
      const started = await api<StartAnswer>("POST", `/api/session/${c.name}`, {
        session_id: id,
        ...(c.name === "retry" ? { run: true } : {}),
        ...focus,
      });
      done();
      host.announceStart(started, "", c.name);
      return true;
    }
    case "usage": {
      const id = needSession(host, c);
      const { session } = await api<{ session: Record<string, unknown> }>(
        "GET",
        `/api/session?session_id=${encodeURIComponent(id)}&messages=0`,
      );
      host.panel.value = { kind: "usage", session };
      done();
      return true;
    }
  }
  return false;
}

/**
 * Run `c` with `arg` (`choice` is the menu row picked, which may carry a model's provider).
 * The composer has already cleared its error and closed its panel and menu.
 */
export async function runSlashCommand(
  host: CommandHost,
  c: SlashCommand,
  arg: string,
  choice?: ArgChoice,
): Promise<void> {
  const done = () => host.replaceDraft("");
  if (await runSessionCommand(host, c, arg)) return;
  if (c.name === "reasoning" || (c.name === "title" && !arg)) {
    return await (await sessionExtras()).runSessionExtra(host, c, arg);
  }
  if (await runSideCommand(host, c, arg)) return;
  switch (c.name) {
    case "help":
      host.panel.value = { kind: "help" };
      return done();
    case "new":
      host.deps.writeDraft(host.sessionId, "");
      host.deps.navigate(host.projectId ? `/?project=${encodeURIComponent(host.projectId)}` : "/");
      return;
    case "stop":
      done();
      return await host.stop();
    case "title": {
      if (!arg) return host.replaceDraft("/title ");
      const id = needSession(host, c);
      const { session } = await host.deps.api<{ session: { title: string } }>(
        "POST",
        "/api/session/rename",
        { session_id: id, title: arg },
      );
      done();
      host.deps.setTitle(`${session.title} · ${t("common.appName")}`);
      emitHermesEvent("hermes:session-title", { session_id: id, title: session.title });
      emitHermesEvent("hermes:sessions-changed", { session_id: id, reason: "rename" });
      return host.showFlash(t("composer.renamed", { title: session.title }));
    }
    case "model": {
      if (!arg) return (done(), host.openPopover("model"));
      const provider = choice?.provider_id ??
        host.argChoices.value.models?.find((m) => m.value === arg)?.provider_id ?? null;
      await host.chooseModel(arg, provider);
      return done();
    }
    case "workspace":
      if (!arg) return (done(), host.openPopover("workspace"));
      await host.chooseWorkspace(arg);
      return done();
    case "theme": {
      if (!c.choices?.includes(arg)) return host.replaceDraft("/theme ");
      emitHermesEvent("hermes:theme-change", { theme: arg as "light" | "dark" | "system" });
      done();
      return host.showFlash(t("composer.theme", { theme: arg }));
    }
    case "yolo": {
      const { session_id, on } = await flipSessionSwitch(
        host,
        "yolo",
        "skip_approvals",
        host.yolo.value,
      );
      host.yolo.value = on;
      emitHermesEvent("hermes:skip-approvals", { session_id, enabled: on });
      done();
      if (on) host.panel.value = { kind: "yolo" };
      else host.showFlash(t("composer.approvalsBackOn"));
      return;
    }
    case "network": {
      const { on } = await flipSessionSwitch(host, "network", "allow_network", host.network.value);
      host.network.value = on;
      done();
      return host.showFlash(t(on ? "composer.networkOn" : "composer.networkOff"));
    }
    case "goal":
      return await (await agentCommands()).runGoal(host, arg);
    case "personality":
      return await (await agentCommands()).runPersonality(host, arg);
    case "prompt":
      return await (await agentCommands()).runPrompt(host, arg);
    case "reload-mcp": {
      const res = await host.deps.api<{ servers: Array<Record<string, unknown>> }>(
        "POST",
        "/api/mcp/reload",
        {},
      );
      host.panel.value = { kind: "mcp", servers: res.servers };
      return done();
    }
  }
}
