// Browser-safe: imports nothing from Deno or the database.
// The top bar's goal chip in the browser, loaded by lib/browser/pages/layout.ts on first need:
// it fetches GET /api/goal for the open session and fills the chip's hooks (text only, never
// HTML: the goal and the evaluator's reasons are model/user text). After a run ends it watches
// while the goal stays active: the server evaluates the turn and may start the next one by
// itself, which is announced with `hermes:run-discovered` for the live transcript to follow.
import { api } from "./api_client.ts";
import { emitHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";
import {
  goalChipLabel,
  goalChipTitle,
  goalReasonLine,
  type GoalView,
} from "../shared/goal_view.ts";

const POLL_MS = 700;
/** How long to wait for the evaluator after a run (polls); it is one model call. */
const MAX_POLLS = 170;

/** Put `g` in the chip (hidden when null). */
export function renderGoalChip(g: GoalView | null): void {
  const chip = document.querySelector<HTMLDetailsElement>("[data-goal-chip]");
  if (!chip) return;
  chip.hidden = !g;
  if (!g) return void (chip.open = false);
  chip.dataset.status = g.status;
  const set = (hook: string, text: string) => {
    const el = chip.querySelector<HTMLElement>(`[data-goal-${hook}]`);
    if (el) (el.textContent = text, el.hidden = text === "" && hook === "reason");
  };
  set("label", goalChipLabel(g));
  set("status", t("composer.goalStatus", { status: g.status }));
  set("text", g.goal);
  set("reason", goalReasonLine(g));
  chip.querySelector("summary")?.setAttribute("title", goalChipTitle(g));
  const list = chip.querySelector<HTMLElement>("[data-goal-subgoals]");
  if (list) {
    list.replaceChildren(...g.subgoals.map((s) => {
      const li = document.createElement("li");
      li.dataset.done = s.done ? "true" : "false";
      const box = document.createElement("span");
      box.setAttribute("aria-hidden", "true");
      box.textContent = s.done ? "☑" : "☐";
      li.append(box, ` ${s.title}`);
      return li;
    }));
    list.hidden = g.subgoals.length === 0;
  }
}

async function fetchGoal(sessionId: string): Promise<GoalView | null> {
  const res = await api<{ goal: GoalView | null }>(
    "GET",
    `/api/goal?session_id=${encodeURIComponent(sessionId)}`,
  );
  return res.goal;
}

/** Fetch the session's goal and show it. */
export async function refreshGoalChip(sessionId: string): Promise<GoalView | null> {
  const g = await fetchGoal(sessionId);
  renderGoalChip(g);
  return g;
}

let watching: { sessionId: string; token: number } | null = null;
let tokens = 0;

/**
 * A run of `sessionId` ended: follow the goal while it stays active and no new run has
 * started; a run the server starts by itself is announced (`hermes:run-discovered`).
 */
export async function watchAfterRun(sessionId: string, endedStream: string | null): Promise<void> {
  const token = ++tokens;
  watching = { sessionId, token };
  const current = () => watching?.token === token;
  let last = "";
  for (let i = 0; i < MAX_POLLS && current(); i++) {
    const g = await fetchGoal(sessionId).catch(() => null);
    if (!current()) return;
    const shown = JSON.stringify(g);
    if (shown !== last) (renderGoalChip(g), last = shown);
    if (!g || g.status !== "active") return;
    const { session } = await api<{ session: { active_stream_id?: string | null } }>(
      "GET",
      `/api/session?session_id=${encodeURIComponent(sessionId)}&messages=0`,
    ).catch(() => ({ session: {} as { active_stream_id?: string | null } }));
    const next = session.active_stream_id;
    if (next && next !== endedStream) {
      if (current()) {
        emitHermesEvent("hermes:run-discovered", { session_id: sessionId, stream_id: next });
      }
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Stop watching (the page moved to another session). */
export function stopWatching(): void {
  watching = null;
}
