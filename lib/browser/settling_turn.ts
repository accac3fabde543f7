// Browser-safe: imports nothing from Deno or the database.
// What a live turn shows as its parts settle, the way a reload shows them (loaded by the live
// transcript on a run's first tool call or end, never before the first paint): narration that
// moved into the Activity rendered as the transcript renders prose (LiveProse streams only the
// prose outside it), and, once the run ended, whether its calls changed files — read from the
// checkpoints, as the server's page reads them — so "Roll back this turn" shows only then.
// Its helpers come from the caller, which has them loaded already: importing them here would
// split them out of the first-paint bundle into chunks of their own, at a cost to every page.
import type { api as browserApi } from "./api_client.ts";
import type { LiveRun } from "../shared/transcript_live.ts";
import type { Segment } from "../shared/transcript_turns.ts";
import type { orderTurn } from "../shared/transcript_order.ts";
import type { renderSegmentsHtml } from "./live_prose.ts";

/** What settling needs from the live transcript. */
export interface SettleDeps {
  api: typeof browserApi;
  order: typeof orderTurn;
  render: typeof renderSegmentsHtml;
  /** The turn changed: render the view again. */
  changed(): void;
}

/** Tools whose calls are checkpointed (lib/shared/turn_rollback.ts says the same). */
const FILE_TOOLS = new Set(["write_file", "patch", "terminal"]);

/** Segments whose HTML is being rendered (a later event must not render them twice). */
const rendering = new WeakSet<Segment>();
/** Runs whose checkpoints were asked for (once per run). */
const asked = new WeakSet<LiveRun>();

/** Render the Activity's narration to HTML, then show it. */
function renderNotes(run: LiveRun, deps: SettleDeps): void {
  const keys = new Set<string>();
  for (const step of deps.order(run.turn).steps) {
    if (step.kind === "note" && !step.html) keys.add(step.key);
  }
  const segs = run.turn.segments.filter((seg) => keys.has(seg.key) && !rendering.has(seg));
  if (!segs.length) return;
  for (const seg of segs) rendering.add(seg);
  deps.render(segs).then(deps.changed, () => {
    for (const seg of segs) rendering.delete(seg); // the next event tries again
  });
}

/** Once the run ended: did its turn change files (GET /api/rollback/list)? */
async function readChangedFiles(run: LiveRun, deps: SettleDeps): Promise<void> {
  const turnId = run.turn.turnId;
  const ran = run.turn.tools.some((x) =>
    FILE_TOOLS.has(x.name) && (x.status === "completed" || x.status === "error")
  );
  if (!run.ended || asked.has(run) || !turnId || !ran) return;
  asked.add(run);
  try {
    const { checkpoints } = await deps.api<
      { checkpoints: Array<{ turn_id: string; restored_at?: number | null }> }
    >("GET", `/api/rollback/list?session_id=${encodeURIComponent(run.sessionId)}`);
    // As the server's page reads them (turnsWithChanges): restored changes offer nothing.
    run.turn.changedFiles = checkpoints.some((c) => c.turn_id === turnId && !c.restored_at);
    deps.changed();
  } catch { /* unknown: a file-changing call that ran is taken as a change */ }
}

/** Bring `run`'s turn up to what a reload would show of it so far. */
export function settleTurn(run: LiveRun, deps: SettleDeps): void {
  renderNotes(run, deps);
  void readChangedFiles(run, deps);
}
