// Projects: named, coloured groups of sessions that may carry bindings (workspaces, a
// default workspace, a model). Invariants: ids are 12 hex chars; names are 1–128 chars;
// colours match ^#[0-9a-fA-F]{3,8}$; default_workspace ∈ workspaces; deleting a project
// unassigns its sessions and never deletes them.
import { type Db, parseJsonColumn, transaction } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { publishSessionsChanged } from "./session_events.ts";
import { type Clock, newSessionId } from "../ids.ts";

export interface Project {
  project_id: string;
  name: string;
  color: string | null;
  workspaces: string[];
  default_workspace: string | null;
  model: string | null;
  model_provider: string | null;
  created_at: number;
  /** Stored but dormant (seed §4.12): accepted by bind, applied nowhere. */
  reasoning_effort: string | null;
  /** Stored but dormant (seed §4.12): accepted by bind, applied nowhere. */
  auto_assign: boolean;
}

export const COLOR_RE = /^#[0-9a-fA-F]{3,8}$/;
export const MAX_PROJECT_NAME = 128;

interface ProjectDbRow {
  project_id: string;
  name: string;
  color: string | null;
  workspaces: string;
  default_workspace: string | null;
  workspace: string | null;
  model: string | null;
  model_provider: string | null;
  reasoning_effort: string | null;
  auto_assign: number;
  created_at: number;
}

function fromRow(r: ProjectDbRow): Project {
  const list = parseJsonColumn<unknown>(r.workspaces, []);
  const workspaces = Array.isArray(list) ? list.filter((w) => typeof w === "string") : [];
  // Rows from before multi-workspace bindings only set the legacy single `workspace`.
  if (workspaces.length === 0 && r.workspace) workspaces.push(r.workspace);
  return {
    project_id: r.project_id,
    name: r.name,
    color: r.color,
    workspaces,
    default_workspace: r.default_workspace,
    model: r.model,
    model_provider: r.model_provider,
    created_at: r.created_at,
    reasoning_effort: r.reasoning_effort,
    auto_assign: !!r.auto_assign,
  };
}

/** Trim and check a project name (1–128 chars). */
export function normalizeProjectName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed === "") throw new ValidationError("Project name must not be empty", "name");
  if (Array.from(trimmed).length > MAX_PROJECT_NAME) {
    throw new ValidationError(
      `Project name is longer than ${MAX_PROJECT_NAME} characters`,
      "name",
    );
  }
  return trimmed;
}

/** Check a colour against ^#[0-9a-fA-F]{3,8}$ (null/undefined means "no colour"). */
export function checkColor(color: string | null | undefined): string | null {
  if (color === undefined || color === null || color === "") return null;
  if (!COLOR_RE.test(color)) {
    throw new ValidationError(
      `Invalid color "${color}": expected a hex colour like #3b82f6`,
      "color",
    );
  }
  return color;
}

/** Every project, oldest first (the order chips appear in). */
export function listProjects(db: Db): Project[] {
  const rows = db.prepare("SELECT * FROM projects ORDER BY created_at, rowid").all();
  return (rows as unknown as ProjectDbRow[]).map(fromRow);
}

export function findProject(db: Db, id: string): Project | null {
  const row = db.prepare("SELECT * FROM projects WHERE project_id = ?").get(id);
  return row ? fromRow(row as unknown as ProjectDbRow) : null;
}

/** A project by id; unknown ids are a NotFoundError (404). */
export function getProject(db: Db, id: string): Project {
  const p = findProject(db, id);
  if (!p) throw new NotFoundError(`Project "${id}" not found`);
  return p;
}

export function createProject(
  db: Db,
  clock: Clock,
  input: { name: string; color?: string | null },
): Project {
  const id = newSessionId();
  db.prepare("INSERT INTO projects (project_id, name, color, created_at) VALUES (?, ?, ?, ?)").run(
    id,
    normalizeProjectName(input.name),
    checkColor(input.color),
    clock(),
  );
  return getProject(db, id);
}

/** Change a project's name and/or colour (`color: null` removes the colour). */
export function renameProject(
  db: Db,
  id: string,
  patch: { name?: string; color?: string | null },
): Project {
  getProject(db, id);
  if (patch.name !== undefined) {
    db.prepare("UPDATE projects SET name = ? WHERE project_id = ?").run(
      normalizeProjectName(patch.name),
      id,
    );
  }
  if (patch.color !== undefined) {
    db.prepare("UPDATE projects SET color = ? WHERE project_id = ?").run(
      checkColor(patch.color),
      id,
    );
  }
  return getProject(db, id);
}

/** Delete a project; its sessions stay, unassigned. Unknown ids are a 404. */
export function deleteProject(db: Db, id: string): void {
  transaction(db, () => {
    getProject(db, id);
    db.prepare("UPDATE sessions SET project_id = NULL WHERE project_id = ?").run(id);
    db.prepare("DELETE FROM projects WHERE project_id = ?").run(id);
    publishSessionsChanged(db, "move");
  });
}

/**
 * A bind request after its workspaces were validated (lib/workspace/workspaces.ts). `undefined`
 * leaves a field alone; `null` clears it.
 */
export interface ProjectBinding {
  workspaces?: string[] | null;
  default_workspace?: string | null;
  /** Legacy single workspace: kept in sync as `workspaces: [w]`. */
  workspace?: string | null;
  model?: string | null;
  model_provider?: string | null;
  reasoning_effort?: string | null;
  auto_assign?: boolean | null;
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

/** Work out the bound workspace list and default after applying `b` to `p`. */
function nextWorkspaces(p: Project, b: ProjectBinding) {
  let list = p.workspaces;
  let def = p.default_workspace;
  if (b.workspace !== undefined) list = b.workspace === null ? [] : [b.workspace];
  if (b.workspaces !== undefined) list = b.workspaces === null ? [] : dedupe(b.workspaces);
  if (b.workspace !== undefined && b.workspace !== null && b.workspaces === undefined) {
    def = b.workspace;
  }
  if (b.default_workspace !== undefined) def = b.default_workspace;
  // default_workspace ∈ workspaces always holds: a default outside the list joins it,
  // and dropping the default's workspace drops the default.
  if (def !== null && b.default_workspace !== undefined && !list.includes(def)) {
    list = [...list, def];
  }
  if (def !== null && !list.includes(def)) def = null;
  return { list, def };
}

/** Apply a validated binding to a project, touching only the supplied fields. */
export function bindProject(db: Db, id: string, b: ProjectBinding): Project {
  return transaction(db, () => {
    const p = getProject(db, id);
    const { list, def } = nextWorkspaces(p, b);
    db.prepare(
      `UPDATE projects SET workspaces = ?, default_workspace = ?, workspace = ? WHERE project_id = ?`,
    ).run(JSON.stringify(list), def, list.length === 1 ? list[0] : null, id);
    for (const key of ["model", "model_provider", "reasoning_effort"] as const) {
      if (b[key] !== undefined) {
        db.prepare(`UPDATE projects SET ${key} = ? WHERE project_id = ?`).run(b[key] ?? null, id);
      }
    }
    if (b.auto_assign !== undefined) {
      db.prepare("UPDATE projects SET auto_assign = ? WHERE project_id = ?").run(
        b.auto_assign ? 1 : 0,
        id,
      );
    }
    return getProject(db, id);
  });
}

/** Count of sessions filed under each project (for chips). */
export function projectSessionCounts(db: Db): Record<string, number> {
  const rows = db.prepare(
    "SELECT project_id, count(*) AS n FROM sessions WHERE project_id IS NOT NULL GROUP BY project_id",
  ).all() as Array<{ project_id: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.project_id, r.n]));
}

/**
 * What a new session filed under `p` starts with when the request leaves it open: the
 * project's default workspace (else its first bound one) and its bound model.
 */
export function projectSessionDefaults(p: Project): {
  workspace: string | null;
  model: string | null;
  model_provider: string | null;
} {
  return {
    workspace: p.default_workspace ?? p.workspaces[0] ?? null,
    model: p.model,
    model_provider: p.model_provider,
  };
}
