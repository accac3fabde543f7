// Browser-safe: imports nothing from Deno or the database.
// The composer's agent-setup commands: `/goal` (a standing goal: POST /api/goal, which starts a
// new goal's first turn itself; the page follows that run), `/personality` (list the presets, or set one for the
// chat) and `/prompt` (a saved prompt into the draft, with a form for its {{variables}}).
// Invariants: the draft only changes once the server answered; failures are thrown to the composer.
import { emitHermesEvent } from "../../shared/ui_events.ts";
import type { ChatStartKind, StartAnswer } from "./chat_start.ts";
import { t } from "../../i18n/t.ts";

/** A saved prompt as GET /api/prompts lists it. */
export interface SavedPromptInfo {
  name: string;
  content: string;
  variables: string[];
}

/** A personality preset as GET /api/personalities lists it. */
export interface PersonalityInfo {
  name: string;
  description: string;
}

/** The agent-setup popovers (components/composer/AgentPanel.tsx): forms, lists, notices. */
export type AgentPanel =
  | { kind: "prompt"; name: string; variables: string[] }
  | { kind: "personality"; list: PersonalityInfo[] }
  | { kind: "notice"; title: string; text: string };

/** The part of the composer these commands act on (composer_commands.ts's CommandHost has it). */
export interface AgentHost {
  deps: {
    api<T = Record<string, unknown>>(
      method: "GET" | "POST",
      path: string,
      body?: unknown,
    ): Promise<T>;
  };
  ensureSession(): Promise<{ session_id: string }>;
  replaceDraft(text: string): void;
  showFlash(text: string): void;
  focus(): void;
  /** Follow a run the server started (the transcript shows it live). */
  announceStart(started: StartAnswer, text: string, kind: ChatStartKind): void;
  /** Open an agent popover (null closes it). */
  showPanel(panel: AgentPanel | null): void;
}

/** POST /api/goal's answer (the part the composer uses); a new goal's carries its first run. */
interface GoalAnswer extends Partial<StartAnswer> {
  ok: boolean;
  action: string;
  message: string;
  kickoff_prompt?: string;
}

/** `/goal [text|status|pause|resume|clear]`. A new goal's first turn is already running. */
export async function runGoal(host: AgentHost, arg: string): Promise<void> {
  const s = await host.ensureSession();
  const res = await host.deps.api<GoalAnswer>("POST", "/api/goal", {
    session_id: s.session_id,
    args: arg,
  });
  emitHermesEvent("hermes:goal-changed", { session_id: s.session_id });
  host.replaceDraft("");
  if (!res.ok) throw new Error(res.message);
  if (res.action === "set" && res.stream_id) {
    host.showFlash(res.message.split("\n")[0]);
    const { stream_id, turn_id = "", title = "" } = res;
    host.announceStart(
      { stream_id, session_id: res.session_id ?? s.session_id, turn_id, title },
      res.kickoff_prompt ?? "",
      "chat",
    );
    return;
  }
  if (res.action === "status" || res.message.includes("\n")) {
    host.showPanel({ kind: "notice", title: t("composer.goalTitle"), text: res.message });
    return;
  }
  host.showFlash(res.message);
}

/** `/personality [name]`: with a name, set it for this chat ("none" clears); else list them. */
export async function runPersonality(host: AgentHost, arg: string): Promise<void> {
  if (!arg) {
    const res = await host.deps.api<{ personalities: PersonalityInfo[] }>(
      "GET",
      "/api/personalities",
    );
    host.replaceDraft("");
    host.showPanel({ kind: "personality", list: res.personalities });
    return;
  }
  await setPersonality(host, arg === "none" || arg === "default" ? "" : arg);
}

/** Set (or, with "", clear) the chat's personality. */
export async function setPersonality(host: AgentHost, name: string): Promise<void> {
  const s = await host.ensureSession();
  const res = await host.deps.api<{ personality: string | null }>(
    "POST",
    "/api/personality/set",
    { session_id: s.session_id, name },
  );
  host.replaceDraft("");
  host.showPanel(null);
  host.showFlash(
    res.personality
      ? t("composer.personalitySet", { name: res.personality })
      : t("composer.personalityCleared"),
  );
}

/**
 * `/prompt [name]`: without a name the menu of saved prompts opens (`/prompt ` completes to
 * it); a prompt without variables goes straight into the draft, one with variables opens the
 * small form first.
 */
export async function runPrompt(host: AgentHost, arg: string): Promise<void> {
  if (!arg) return host.replaceDraft("/prompt ");
  const { prompts } = await host.deps.api<{ prompts: SavedPromptInfo[] }>("GET", "/api/prompts");
  const p = prompts.find((x) => x.name === arg) ??
    prompts.find((x) => x.name.toLowerCase() === arg.toLowerCase());
  if (!p) throw new Error(t("composer.noSavedPrompt", { name: arg }));
  if (p.variables.length === 0) return await fillPrompt(host, p.name, {});
  host.showPanel({ kind: "prompt", name: p.name, variables: p.variables });
}

/** Fill a saved prompt's variables (POST /api/prompts/render) and put the text in the draft. */
export async function fillPrompt(
  host: AgentHost,
  name: string,
  values: Record<string, string>,
): Promise<void> {
  const res = await host.deps.api<{ text: string }>("POST", "/api/prompts/render", {
    name,
    values,
  });
  host.showPanel(null);
  host.replaceDraft(res.text);
  host.focus();
}
