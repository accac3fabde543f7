// Background tasks (`/background <task>`): a run in a hidden side child of the session
// (lib/sessions/side_sessions.ts) whose end is announced to the parent as `bg_task_complete`.
// Invariants: the task list is read from the database (it survives a reload and a restart);
// a notice is sent once, when the run ends in this process; listeners never break the run.
import { sharedFilesDir } from "../settings/config.ts";
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import { randomHex } from "../ids.ts";
import { ValidationError } from "../errors.ts";
import { deleteSession, getSession } from "../sessions/sessions.ts";
import { listMessages } from "../sessions/messages.ts";
import { createSideSession, listSideChildren } from "../sessions/side_sessions.ts";
import type { EngineHost } from "./engine_host.ts";
import type { RunManager } from "./run_manager.ts";

export const MAX_BACKGROUND_PROMPT = 20_000;

export type BackgroundStatus = "running" | "done" | "cancelled" | "error" | "interrupted";

/** One background task as GET /api/background/status lists it. */
export interface BackgroundTask {
  task_id: string;
  session_id: string;
  parent_session_id: string;
  stream_id: string | null;
  prompt: string;
  status: BackgroundStatus;
  answer: string | null;
  started_at: number;
  completed_at: number | null;
}

type Listener = (task: BackgroundTask) => void;
const listeners = new WeakMap<Db, Map<string, Set<Listener>>>();

/** Hear `bg_task_complete` for one parent session; returns the unsubscribe. */
export function onBackgroundComplete(db: Db, parentId: string, fn: Listener): () => void {
  let byParent = listeners.get(db);
  if (!byParent) listeners.set(db, byParent = new Map());
  const set = byParent.get(parentId) ?? new Set();
  byParent.set(parentId, set.add(fn));
  return () => {
    set.delete(fn);
    if (!set.size) byParent!.delete(parentId);
  };
}

function announce(db: Db, task: BackgroundTask): void {
  for (const fn of [...(listeners.get(db)?.get(task.parent_session_id) ?? [])]) {
    try {
      fn(task);
    } catch { /* a broken listener must not break the run's end */ }
  }
}

type Host = EngineHost & { runs: RunManager };

/** POST /api/background: start `prompt` in a new hidden child of `parentId`. */
export async function startBackground(
  app: Host,
  parentId: string,
  prompt: string,
): Promise<{ task_id: string; stream_id: string; session_id: string }> {
  const text = prompt.trim();
  if (!text) throw new ValidationError("prompt is required", "prompt");
  await getSession(app.db, parentId); // 404 before anything is created
  const taskId = randomHex(8);
  const child = await createSideSession(app.db, app.clock, {
    parentId,
    kind: "bg",
    id: taskId,
    title: `bg: ${text.slice(0, 60)}`,
    withContext: false,
  });
  let started;
  try {
    started = await app.runs.start(app, { sessionId: child.session_id, message: text });
  } catch (err) {
    await deleteSession(app.db, sharedFilesDir(app.config), child.session_id);
    throw err;
  }
  const run = app.runs.get(started.stream_id);
  run?.subscribe(() => {}, () => {
    if (run.status === "running") return; // server shutdown: the next start marks it interrupted
    readTask(app.db, parentId, child.session_id)
      .then((task) => task && announce(app.db, task))
      .catch((err) => app.log.warn("could not announce a background task", { error: String(err) }));
  });
  return { task_id: taskId, stream_id: started.stream_id, session_id: child.session_id };
}

/** Every background task of `parentId` (running and finished), oldest first. */
export async function listBackground(
  db: AsyncQueries,
  parentId: string,
): Promise<BackgroundTask[]> {
  const tasks: BackgroundTask[] = [];
  for (const c of await listSideChildren(db, parentId, "bg")) {
    tasks.push(await taskOf(db, parentId, c.session_id, c.marker));
  }
  return tasks;
}

async function readTask(
  db: AsyncQueries,
  parentId: string,
  childId: string,
): Promise<BackgroundTask | null> {
  const c = (await listSideChildren(db, parentId, "bg")).find((x) => x.session_id === childId);
  return c ? await taskOf(db, parentId, c.session_id, c.marker) : null;
}

async function taskOf(
  db: AsyncQueries,
  parentId: string,
  childId: string,
  marker: string,
): Promise<BackgroundTask> {
  const stream = await db.get<
    { stream_id: string; status: BackgroundStatus; started_at: number; ended_at: number | null }
  >(
    sql`SELECT stream_id, status, started_at, ended_at FROM streams WHERE session_id = ${childId}
        ORDER BY started_at DESC LIMIT 1`,
  );
  const msgs = await listMessages(db, childId);
  const prompt = msgs.find((m) => m.role === "user");
  const last = msgs.findLast((m) =>
    m.role === "assistant" && typeof m.content === "string" &&
    m.content.trim()
  );
  const status = stream?.status ?? "interrupted";
  return {
    task_id: marker.slice(3),
    session_id: childId,
    parent_session_id: parentId,
    stream_id: stream?.stream_id ?? null,
    prompt: typeof prompt?.content === "string" ? prompt.content : "",
    status,
    answer: status === "running" ? null : (last?.content as string | undefined) ?? null,
    started_at: stream?.started_at ?? 0,
    completed_at: stream?.ended_at ?? null,
  };
}

/** Forget a finished task (its hidden session goes); a running one must be cancelled first. */
export async function dismissBackground(
  app: Host,
  parentId: string,
  taskId: string,
): Promise<boolean> {
  const task = (await listBackground(app.db, parentId)).find((t) => t.task_id === taskId);
  if (!task) return false;
  if (task.status === "running" && task.stream_id) await app.runs.cancel(task.stream_id);
  return await deleteSession(app.db, sharedFilesDir(app.config), task.session_id);
}
