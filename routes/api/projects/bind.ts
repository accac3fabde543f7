// POST /api/projects/bind — seed ARCHITECTURE.md §4.12 "Project Bindings". Only supplied
// fields change; null clears. Workspaces are validated like /api/workspaces/add, de-duplicated
// (first seen wins) and auto-registered; default_workspace ∈ workspaces always holds.
// reasoning_effort and auto_assign are shape-checked and stored but dormant.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { bindProject, getProject, type ProjectBinding } from "../../../lib/sessions/projects.ts";
import { registerWorkspace, validateWorkspaceToAdd } from "../../../lib/workspace/workspaces.ts";

export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

const Path = z.string().min(1, "must not be empty");
const Body = z.object({
  project_id: z.string().min(1),
  workspaces: z.array(Path).max(100).nullable().optional(),
  default_workspace: Path.nullable().optional(),
  workspace: Path.nullable().optional(),
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
  reasoning_effort: z.enum(REASONING_EFFORTS).nullable().optional(),
  auto_assign: z.boolean().nullable().optional(),
});

/** "" clears like null does. */
const blankToNull = (v: string | null | undefined) => (v === "" ? null : v);

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    await getProject(app.db, body.project_id);
    const real = async (p: string | null | undefined) =>
      p == null ? p : await validateWorkspaceToAdd(app.config, p);
    const binding: ProjectBinding = {
      workspaces: body.workspaces == null
        ? body.workspaces
        : await Promise.all(body.workspaces.map((p) => validateWorkspaceToAdd(app.config, p))),
      default_workspace: await real(body.default_workspace),
      workspace: await real(body.workspace),
      model: blankToNull(body.model),
      model_provider: blankToNull(body.model_provider),
      reasoning_effort: body.reasoning_effort,
      auto_assign: body.auto_assign,
    };
    const paths = [...(binding.workspaces ?? []), binding.default_workspace, binding.workspace];
    const project = await app.db.transaction(async (tx) => {
      for (const p of paths) if (p) await registerWorkspace(tx, app.clock, p);
      return await bindProject(tx, body.project_id, binding);
    });
    return json({ ok: true, project });
  },
};
