// POST /api/approval/respond {session_id, choice: once|session|always|deny, approval_id?, message?,
// scope?: command|pattern, command?}
// → {ok, choice, resolved, approval_id?, pending_count}. Invalid choice or no session_id → 400;
// nothing pending (or an unknown session id, any string up to 128 chars) → {ok:true, choice,
// resolved:false} as in the original; a named approval that is no longer pending → 409.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import {
  APPROVAL_CHOICES,
  pendingApprovals,
  resolveApproval,
} from "../../../lib/approvals/approvals.ts";
import { forwardApprovalAnswer } from "../../../lib/replicas/replica_commands.ts";
import {
  answerInjected,
  MAX_APPROVAL_SESSION_ID,
} from "../../../lib/approvals/injected_approvals.ts";
import { findSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({
  session_id: z.string().min(1).max(MAX_APPROVAL_SESSION_ID),
  choice: z.enum(APPROVAL_CHOICES as unknown as ["once", "session", "always", "deny"]),
  approval_id: z.string().min(1).optional(),
  message: z.string().max(4000).optional(),
  /** New beside the original's shape: what session/always cover (default `pattern`). */
  scope: z.enum(["command", "pattern"]).optional(),
  /** New: edit-then-run — the command to run instead, once (judged by the policy again). */
  command: z.string().max(20_000).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    if (!(await findSession(app.db, body.session_id))) {
      const answered = answerInjected(app.tools.approvals, body.session_id, body.approval_id);
      return json({
        ok: true,
        choice: body.choice,
        resolved: answered !== null,
        ...(answered ? { approval_id: answered.approval_id } : {}),
        pending_count: 0,
      });
    }
    if (!body.approval_id && (await pendingApprovals(app.db, body.session_id)).pending === null) {
      return json({ ok: true, choice: body.choice, resolved: false, pending_count: 0 });
    }
    const { delivered, ...result } = await resolveApproval(app, {
      sessionId: body.session_id,
      choice: body.choice,
      approvalId: body.approval_id,
      message: body.message,
      scope: body.scope,
      command: body.command,
    });
    // The run that waits for this answer may be another replica's: the answer is stored, and
    // that replica is told to read it.
    if (!delivered) await forwardApprovalAnswer(app, result.approval_id);
    return json({ ...result, resolved: true });
  },
};
