// POST /api/approval/respond {session_id, choice: once|session|always|deny, approval_id?, message?}
// → {ok, choice}. Invalid choice or no session_id → 400; an approval that is not pending → 409.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { APPROVAL_CHOICES, resolveApproval } from "../../../lib/approvals/approvals.ts";

const Body = z.object({
  session_id: z.string().min(1),
  choice: z.enum(APPROVAL_CHOICES as unknown as ["once", "session", "always", "deny"]),
  approval_id: z.string().min(1).optional(),
  message: z.string().max(4000).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const result = await resolveApproval(app, {
      sessionId: body.session_id,
      choice: body.choice,
      approvalId: body.approval_id,
      message: body.message,
    });
    return json(result);
  },
};
