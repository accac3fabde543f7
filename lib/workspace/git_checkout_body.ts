// The original's checkout request fields, shared by /api/git/checkout and /api/git/stash-checkout
// (its `{ref, mode, new_branch, track}`); git_branches.ts validates the names themselves.
import { z } from "zod";

export const CheckoutFields = z.object({
  session_id: z.string().min(1),
  ref: z.string().max(400).optional(),
  mode: z.enum(["local", "new", "create", "remote", "detached", "detach"]).optional()
    .transform((m) => m === "create" ? "new" : m === "detach" ? "detached" : m),
  new_branch: z.string().max(400).nullable().optional(),
  track: z.boolean().optional(),
});
