// POST /api/goal {session_id, args, workspace?, model?, model_provider?} → {ok, action, message,
// goal}: the `/goal` command, with the original's actions — `` / `status` shows it, `pause`,
// `resume`, `clear` (also `stop`, `done`); anything else sets a new goal and starts its first turn
// here, answering also `kickoff_prompt` and the run's `stream_id`, `session_id`, `turn_id` and
// `title` (as POST /api/chat/start does) for the page to follow. A turn that cannot start puts
// the previous goal back. GET /api/goal?session_id= → {goal} for the topbar chip.
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";
import {
  budgetsFromConfig,
  clearGoal,
  getGoal,
  type Goal,
  goalPayload,
  restoreGoal,
  setGoal,
  updateGoal,
} from "../../lib/goals/goal_store.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  args: z.string().max(4000).default(""),
  workspace: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
});

function statusLine(g: Goal | null): string {
  if (!g) return "No active goal. Set one with /goal <text>.";
  const turns = `${g.turns_used}/${g.max_turns} turns`;
  switch (g.status) {
    case "active":
      return `⊙ Goal (active, ${turns}): ${g.goal}`;
    case "paused":
      return `⏸ Goal (paused, ${turns}${
        g.paused_reason ? ` — ${g.paused_reason}` : ""
      }): ${g.goal}`;
    case "blocked":
      return `⚠ Goal blocked (${turns}): ${g.paused_reason ?? "needs you"} — ${g.goal}`;
    case "done":
      return `✓ Goal done (${turns}): ${g.goal}`;
  }
}

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sid = requireParam(url, "session_id");
    await getSession(app.db, sid);
    const g = await getGoal(app.db, sid);
    return json({ goal: goalPayload(g), message: statusLine(g) });
  },
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const { session_id, args } = body;
    const session = await getSession(app.db, session_id);
    const text = args.trim();
    const lower = text.toLowerCase();
    const now = app.clock();
    const answer = (action: string, g: Goal | null, message: string, extra = {}) =>
      json({ ok: true, action, message, goal: goalPayload(g), ...extra });
    const refuse = async (action: string, error: string, message: string) =>
      json({
        ok: false,
        action,
        error,
        message,
        goal: goalPayload(await getGoal(app.db, session_id)),
      });

    if (!text || lower === "status") {
      const g = await getGoal(app.db, session_id);
      return answer("status", g, statusLine(g));
    }
    if (lower === "pause") {
      const g = await updateGoal(
        app.db,
        session_id,
        { status: "paused", paused_reason: "user-paused" },
        now,
      );
      return g
        ? answer("pause", g, `⏸ Goal paused: ${g.goal}`)
        : refuse("pause", "no_goal", "No goal set.");
    }
    if (lower === "resume") {
      const g = await updateGoal(app.db, session_id, {
        status: "active",
        paused_reason: null,
        turns_used: 0,
        no_progress: 0,
      }, now);
      return g
        ? answer(
          "resume",
          g,
          `▶ Goal resumed: ${g.goal}\nSend a new message, or type continue, to kick it off.`,
        )
        : refuse("resume", "no_goal", "No goal to resume.");
    }
    if (["clear", "stop", "done"].includes(lower)) {
      const had = await clearGoal(app.db, session_id);
      return answer("clear", null, had ? "Goal cleared." : "No active goal.");
    }
    if (session.active_stream_id) {
      return refuse(
        "set",
        "agent_running",
        "Agent is running — use /goal status / pause / clear mid-run, or /stop before setting a new goal.",
      );
    }
    const previous = await getGoal(app.db, session_id);
    const g = await setGoal(app.db, session_id, text, budgetsFromConfig(app.config.file), now);
    let started;
    try {
      started = await app.runs.start(app, {
        sessionId: session_id,
        message: g.goal,
        ...(body.model != null ? { model: body.model } : {}),
        ...(body.model_provider != null ? { modelProvider: body.model_provider } : {}),
        ...(body.workspace ? { workspace: body.workspace } : {}),
      });
    } catch (err) {
      await restoreGoal(app.db, session_id, previous, app.clock());
      throw err;
    }
    return answer(
      "set",
      g,
      `⊙ Goal set (${g.max_turns}-turn budget): ${g.goal}\n` +
        "I'll keep working until the goal is done, you pause/clear it, or the budget is exhausted.\n" +
        "Controls: /goal status · /goal pause · /goal resume · /goal clear",
      { kickoff_prompt: g.goal, ...started },
    );
  },
};
