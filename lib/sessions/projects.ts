// Projects: named, coloured groups of sessions that may carry bindings (workspaces, a
// default workspace, a model). Invariants: ids are 12 hex chars; names are 1–128 chars;
// colours match ^#[0-9a-fA-F]{3,8}$; default_workspace ∈ workspaces; deleting a project
// unassigns its sessions and never deletes them.
import { type AsyncQueries, type Db, parseJsonColumn, sql } from "../storage/db.ts";
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

/** The columns a project is read from (named: PostgreSQL tables carry an extra rowid). */
const COLUMNS = sql`project_id, name, color, workspaces, default_workspace, workspace, model,
  model_provider, reasoning_effort, auto_assign, created_at`;

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
    created_at: Number(r.created_at),
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
export async function listProjects(db: AsyncQueries): Promise<Project[]> {
  const rows = await db.all<ProjectDbRow>(
    sql`SELECT ${COLUMNS} FROM projects ORDER BY created_at, rowid`,
  );
  return rows.map(fromRow);
}

export async function findProject(db: AsyncQueries, id: string): Promise<Project | null> {
  const row = await db.get<ProjectDbRow>(
    sql`SELECT ${COLUMNS} FROM projects WHERE project_id = ${id}`,
  );
  return row ? fromRow(row) : null;
}

/** A project by id; unknown ids are a NotFoundError (404). */
export async function getProject(db: AsyncQueries, id: string): Promise<Project> {
  const p = await findProject(db, id);
  if (!p) throw new NotFoundError(`Project "${id}" not found`);
  return p;
}

export async function createProject(
  db: AsyncQueries,
  clock: Clock,
  input: { name: string; color?: string | null },
): Promise<Project> {
  const id = newSessionId();
  const name = normalizeProjectName(input.name);
  const color = checkColor(input.color);
  await db.run(
    sql`INSERT INTO projects (project_id, name, color, created_at)
        VALUES (${id}, ${name}, ${color}, ${clock()})`,
  );
  return await getProject(db, id);
}

/** Change a project's name and/or colour (`color: null` removes the colour). */
export async function renameProject(
  db: AsyncQueries,
  id: string,
  patch: { name?: string; color?: string | null },
): Promise<Project> {
  return await db.transaction(async (tx) => {
    await getProject(tx, id);
    // One statement per field, so a rename and a recolour at the same time both land.
    if (patch.name !== undefined) {
      const name = normalizeProjectName(patch.name);
      await tx.run(sql`UPDATE projects SET name = ${name} WHERE project_id = ${id}`);
    }
    if (patch.color !== undefined) {
      const color = checkColor(patch.color);
      await tx.run(sql`UPDATE projects SET color = ${color} WHERE project_id = ${id}`);
    }
    return await getProject(tx, id);
  });
}

/** Delete a project; its sessions stay, unassigned. Unknown ids are a 404. */
export async function deleteProject(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(sql`UPDATE sessions SET project_id = NULL WHERE project_id = ${id}`);
    const { changes } = await tx.run(sql`DELETE FROM projects WHERE project_id = ${id}`);
    // Thrown inside, so the sessions' unassignment above rolls back with it.
    if (changes === 0) throw new NotFoundError(`Project "${id}" not found`);
  });
  // Announced once committed: a listener that reloads sees the project gone.
  await publishSessionsChanged(db, "move");
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
export async function bindProject(
  db: AsyncQueries,
  id: string,
  b: ProjectBinding,
): Promise<Project> {
  return await db.transaction(async (tx) => {
    // The workspace list is read, changed and written back: a no-op write first takes the
    // row's lock (PostgreSQL) or the write lock (SQLite), so two binds at once, from two
    // replicas too, apply in turn instead of the second overwriting the first's list.
    const locked = await tx.run(
      sql`UPDATE projects SET project_id = project_id WHERE project_id = ${id}`,
    );
    if (locked.changes === 0) throw new NotFoundError(`Project "${id}" not found`);
    const p = await getProject(tx, id);
    const { list, def } = nextWorkspaces(p, b);
    const single = list.length === 1 ? list[0] : null;
    await tx.run(
      sql`UPDATE projects SET workspaces = ${JSON.stringify(list)}, default_workspace = ${def},
            workspace = ${single}
          WHERE project_id = ${id}`,
    );
    for (const key of ["model", "model_provider", "reasoning_effort"] as const) {
      if (b[key] !== undefined) {
        await tx.run(
          sql`UPDATE projects SET ${sql.ref(key)} = ${b[key] ?? null} WHERE project_id = ${id}`,
        );
      }
    }
    if (b.auto_assign !== undefined) {
      const flag = b.auto_assign ? 1 : 0;
      await tx.run(sql`UPDATE projects SET auto_assign = ${flag} WHERE project_id = ${id}`);
    }
    return await getProject(tx, id);
  });
}

/** Count of sessions filed under each project (for chips). */
export async function projectSessionCounts(db: AsyncQueries): Promise<Record<string, number>> {
  const rows = await db.all<{ project_id: string; n: number }>(
    sql`SELECT project_id, count(*) AS n FROM sessions
        WHERE project_id IS NOT NULL GROUP BY project_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.project_id, Number(r.n)]));
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
