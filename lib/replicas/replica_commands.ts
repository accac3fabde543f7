// The answers a person gives on one replica for a run another replica owns: an approval
// decision or a clarifying answer. The decision itself is stored (approvals) or carried in the
// command row (clarify); the owning replica settles its waiting tool call
// (lib/replicas/run_leases.ts delivers the command). Cancel and steer are the run manager's.
import type { AppContext } from "../server/app_context.ts";
import { settleAnsweredApproval } from "../approvals/approvals.ts";
import { respondClarify } from "../approvals/clarify.ts";
import { getSession } from "../sessions/sessions.ts";
import { sql } from "../storage/db.ts";

/** Make this process act on approval and clarify answers other replicas send it. */
export function installReplicaCommands(app: AppContext): void {
  app.runs.onReplicaCommand("approval", (cmd) => {
    const id = String(cmd.payload.approval_id ?? "");
    // Runs on its own: commands are handled one after another and must not wait on a query.
    void settleAnsweredApproval(app, id).then((settled) => {
      if (!settled) {
        app.log.warn("an approval answered on another replica had no waiting run here", {
          approval_id: id,
        });
      }
    }).catch((err) =>
      app.log.warn("settling an approval answered on another replica failed", {
        approval_id: id,
        error: String(err),
      })
    );
  });
  app.runs.onReplicaCommand("clarify", (cmd) => {
    respondClarify(app.tools.clarify, {
      sessionId: String(cmd.payload.session_id ?? ""),
      clarifyId: cmd.payload.clarify_id ? String(cmd.payload.clarify_id) : undefined,
      response: String(cmd.payload.response ?? ""),
    });
  });
}

/** An approval answered here whose run waits on another replica: tell that replica. */
export async function forwardApprovalAnswer(app: AppContext, approvalId: string): Promise<void> {
  const row = await app.db.get<{ stream_id: string | null }>(
    sql`SELECT stream_id FROM approvals WHERE approval_id = ${approvalId}`,
  );
  await app.runs.leases.forward({
    kind: "approval",
    stream_id: row?.stream_id ?? null,
    payload: { approval_id: approvalId },
  });
}

/**
 * A clarifying answer for a session whose run is another replica's: send it there. Returns
 * false when no other replica runs the session (answer here, as before).
 */
export async function forwardClarifyAnswer(
  app: AppContext,
  req: { sessionId: string; clarifyId?: string; response: string },
): Promise<boolean> {
  const streamId = (await getSession(app.db, req.sessionId)).active_stream_id;
  return await app.runs.leases.forward({
    kind: "clarify",
    stream_id: streamId,
    payload: {
      session_id: req.sessionId,
      clarify_id: req.clarifyId ?? null,
      response: req.response,
    },
  });
}
