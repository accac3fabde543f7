// Approvals of dangerous terminal commands: a per-session FIFO of pending requests persisted in
// the `approvals` table (a reload shows them), an in-process per-app hub that wakes the waiting
// run and feeds /api/approval/stream, session-scoped and permanent (config.yaml allowlist)
// grants, a per-session "skip approvals" switch and a timeout. Invariants: none of this is ever
// consulted for the hardline tier — the terminal tool refuses those before asking; storage is
// async (the waiters stay in memory); an answer is one conditional UPDATE, so of two racing
// answers (two tabs, two replicas) exactly one applies and the other is a ConflictError.
import type { ChatEvent } from "../shared/chat_events.ts";
import { type AsyncQueries, type Db, parseJsonColumn, sql } from "../storage/db.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { type Clock, randomHex } from "../ids.ts";
import type { Logger } from "../log.ts";
import { systemTimers, type TimerHandle, type Timers } from "../timers.ts";
import {
  APPROVAL_SCOPES,
  type ApprovalScope,
  commandGrantKey,
  describeGrant,
  exactAllowlistFromConfig,
} from "./approval_scope.ts";
import { checkEditedCommand } from "./approval_edit.ts";
import { addCategoryRules, addCommandRule } from "./standing_rules.ts";
import { recordStandingRule, standingRuleStates } from "./standing_rules_store.ts";
import { CHANGED_CODE_KEYS } from "./command_patterns.ts";

export type ApprovalChoice = "once" | "session" | "always" | "deny";
export const APPROVAL_CHOICES: readonly ApprovalChoice[] = ["once", "session", "always", "deny"];

/** A pending approval as the API shows it (GET /api/approval/pending `pending`). */
export interface Approval {
  approval_id: string;
  session_id: string;
  stream_id: string | null;
  command: string;
  description: string;
  pattern_key: string;
  pattern_keys: string[];
  created_at: number;
}

/** What the waiting run learns. `via` says why (for logs and the tool result). */
export interface ApprovalDecision {
  approved: boolean;
  message?: string;
  choice?: ApprovalChoice;
  via: "user" | "session" | "allowlist" | "skip" | "expired" | "cancelled" | "unattended";
  /** For a grant that answered without asking: the rule that allowed it (shown on the card). */
  rule?: string;
  /** Edit-then-run: the command the person allowed instead of the one asked for. */
  command?: string;
}

/** Events of /api/approval/stream: a fresh snapshot of the session's queue each time. */
export interface ApprovalSnapshot {
  pending: Approval | null;
  pending_count: number;
}

interface Waiter {
  sessionId: string;
  emit?: (event: ChatEvent) => void;
  settle(decision: ApprovalDecision): void;
}

/** One listener of a session's queue (GET /api/approval/stream). */
interface Subscriber {
  fn: (snapshot: ApprovalSnapshot, first: boolean) => void;
  /** The read number of the newest snapshot it was given; 0 until its first. */
  shown: number;
  /** The newest change that came in before its first snapshot: folded into that one. */
  early?: { read: number; snapshot: ApprovalSnapshot };
}

/** Per-app approval state (hang it off AppContext; nothing here is process-global). */
export interface ApprovalHub {
  waiters: Map<string, Waiter>;
  subscribers: Map<string, Set<Subscriber>>;
  /** Pattern keys approved forever (config.yaml `command_allowlist`). */
  allowlist: Set<string>;
  /** Exact-command keys approved forever (config.yaml `command_allowlist_commands`). */
  exact: Set<string>;
  timeoutMs: number;
  timers: Timers;
  /** Open /api/approval/stream responses, closed with the app. */
  streams: Set<() => void>;
  /** The last request still storing itself: the next one waits for it (call order). */
  asking: Promise<void>;
  /** Storage work under way (requests being stored, withdrawals): closing waits for it. */
  busy: Set<Promise<unknown>>;
  /**
   * Numbers every snapshot read. Reads may finish out of order (a pool of connections), so a
   * subscriber is only ever given a snapshot read after the one it has.
   */
  reads: number;
  /** Set when the app closes: a new request is refused. */
  closed: boolean;
}

/** The slice of the app approvals need (AppContext satisfies it). */
export interface ApprovalApp {
  db: Db;
  clock: Clock;
  log: Logger;
  config: { configPath: string; file: Record<string, unknown>; home?: string };
  tools: { approvals: ApprovalHub };
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;
const ANSWERED_RETENTION_SECONDS = 7 * 86_400;

const SHUTTING_DOWN: ApprovalDecision = {
  approved: false,
  via: "cancelled",
  message: "The server is shutting down",
};
const RUN_CANCELLED: ApprovalDecision = {
  approved: false,
  via: "cancelled",
  message: "The run was cancelled",
};

/** Create the hub; the allowlist starts from `command_allowlist` in the config file. */
export function createApprovalHub(
  opts: { file?: Record<string, unknown>; timeoutMs?: number; timers?: Timers } = {},
): ApprovalHub {
  const list = opts.file?.command_allowlist;
  return {
    waiters: new Map(),
    subscribers: new Map(),
    allowlist: new Set(Array.isArray(list) ? list.filter((k) => typeof k === "string") : []),
    exact: new Set(exactAllowlistFromConfig(opts.file)),
    timeoutMs: opts.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    timers: opts.timers ?? systemTimers,
    streams: new Set(),
    asking: Promise.resolve(),
    busy: new Set(),
    reads: 0,
    closed: false,
  };
}

/**
 * Shut the hub down with the app, before the database closes: requests already made finish
 * storing themselves and withdrawals land, then waiting runs are released (not approved) and
 * streams end. Pending rows stay in the database, so after a restart the queue is still visible.
 */
export async function closeApprovalHub(hub: ApprovalHub): Promise<void> {
  hub.closed = true;
  while (hub.busy.size > 0) await Promise.allSettled([...hub.busy]);
  for (const w of [...hub.waiters.values()]) w.settle(SHUTTING_DOWN);
  for (const close of [...hub.streams]) close();
}

/** Keep `work` in `hub.busy` until it settles (closing the hub waits for it). */
function track<T>(hub: ApprovalHub, work: Promise<T>): Promise<T> {
  hub.busy.add(work);
  const done = () => void hub.busy.delete(work);
  work.then(done, done);
  return work;
}

/** The columns of an approval as the API shows it (never `*`: PostgreSQL adds `rowid`). */
const APPROVAL_COLUMNS = sql.raw(
  "approval_id, session_id, stream_id, command, description, pattern_key, pattern_keys, created_at",
);

/** An `approvals` row as stored (JSON columns still text). */
export interface ApprovalRow {
  approval_id: string;
  session_id: string;
  stream_id: string | null;
  command: string;
  description: string;
  pattern_key: string;
  pattern_keys: string;
  created_at: number;
}

/** A stored row as the API shows it. */
export function rowToApproval(row: ApprovalRow): Approval {
  return {
    approval_id: row.approval_id,
    session_id: row.session_id,
    stream_id: row.stream_id ?? null,
    command: row.command,
    description: row.description,
    pattern_key: row.pattern_key,
    pattern_keys: parseJsonColumn<string[]>(row.pattern_keys, []),
    created_at: Number(row.created_at),
  };
}

/**
 * A pending approval that can still be answered: its run has not ended. A cancelled or finished
 * run withdraws its requests asynchronously (one UPDATE each), so for a moment after the run's
 * final event its rows still say `pending`; every queue a person reads filters them out here,
 * so what the page shows after a cancel never offers a question nobody waits on. `alias` is
 * the approvals table's alias in the query (trusted text).
 */
export function answerable(alias = ""): ReturnType<typeof sql.raw> {
  const a = alias ? `${alias}.` : "";
  return sql.raw(`${a}status = 'pending' AND (${a}stream_id IS NULL OR ${a}stream_id NOT IN
    (SELECT stream_id FROM streams WHERE status <> 'running'))`);
}

/** Pending approvals whose run no longer runs (SQL condition, trusted text). */
const ORPHANED = `status = 'pending' AND (stream_id IS NULL OR stream_id NOT IN
  (SELECT stream_id FROM streams WHERE status = 'running'))`;
const ORPHANED_MESSAGE = "The server restarted before this was answered";

/**
 * An approval still pending whose run no longer runs (its process stopped: the journal's
 * recovery marked the run interrupted) is an orphan: answering it could never run anything.
 * Expire them, so a reload shows no card that dead-ends. Approvals of runs still running — on
 * another replica sharing the database — are left alone. Returns how many expired.
 */
export async function expireOrphanedApprovals(db: AsyncQueries, clock: Clock): Promise<number> {
  const { changes } = await db.run(
    sql`UPDATE approvals SET status = 'expired', resolved_at = ${clock()},
          message = ${ORPHANED_MESSAGE}
        WHERE ${sql.raw(ORPHANED)}`,
  );
  return changes;
}

/**
 * Tell the waiting run, if it still waits in this process, how its approval ended and release
 * it. Nothing awaits between the check and the release, so of two paths ending one approval
 * (an answer and the timeout) exactly one speaks. Returns whether a run was released.
 */
function releaseWaiter(
  hub: ApprovalHub,
  approvalId: string,
  ended: { choice: string; pending_count: number },
  decision: ApprovalDecision,
): boolean {
  const waiter = hub.waiters.get(approvalId);
  if (!waiter) return false;
  safeEmit(waiter.emit, {
    event: "approval_resolved",
    data: { approval_id: approvalId, choice: ended.choice, pending_count: ended.pending_count },
  });
  waiter.settle(decision);
  return true;
}

/**
 * Settle this process's waiter for an approval answered elsewhere (another replica: its
 * lib/replicas/run_leases.ts command brings it here; or an answer that beat the timeout): the
 * answer is in the approval's row. Returns whether a waiter was settled.
 */
export async function settleAnsweredApproval(
  app: ApprovalApp,
  approvalId: string,
): Promise<boolean> {
  const hub = app.tools.approvals;
  if (!hub.waiters.has(approvalId)) return false;
  const row = await app.db.get<
    ApprovalRow & {
      status: string;
      choice: ApprovalChoice;
      message: string | null;
      edited_command: string | null;
    }
  >(
    sql`SELECT ${APPROVAL_COLUMNS}, status, choice, message, edited_command
        FROM approvals WHERE approval_id = ${approvalId}`,
  );
  if (!row || (row.status !== "approved" && row.status !== "denied")) return false;
  const approval = rowToApproval(row);
  // "always" wrote config.yaml on the replica that answered; this one learns the keys now.
  if (row.choice === "always") { for (const k of approval.pattern_keys) hub.allowlist.add(k); }
  const snapshot = await publish(hub, app.db, approval.session_id);
  return releaseWaiter(hub, approvalId, {
    choice: row.choice,
    pending_count: snapshot.pending_count,
  }, {
    approved: row.status === "approved",
    choice: row.choice,
    message: row.message ?? undefined,
    via: "user",
    ...(row.edited_command ? { command: row.edited_command } : {}),
  });
}

/**
 * The head of a session's queue and its length, read in one statement (a consistent pair).
 */
export async function pendingApprovals(
  db: AsyncQueries,
  sessionId: string,
): Promise<ApprovalSnapshot> {
  const head = await db.get<ApprovalRow & { pending_count: number }>(
    sql`SELECT ${APPROVAL_COLUMNS},
          (SELECT COUNT(*) FROM approvals WHERE session_id = ${sessionId} AND ${answerable()})
            AS pending_count
        FROM approvals WHERE session_id = ${sessionId} AND ${answerable()}
        ORDER BY seq LIMIT 1`,
  );
  return head
    ? { pending: rowToApproval(head), pending_count: Number(head.pending_count) }
    : { pending: null, pending_count: 0 };
}

/** Every pending approval of a session, oldest first. */
export async function listPendingApprovals(
  db: AsyncQueries,
  sessionId: string,
): Promise<Approval[]> {
  const rows = await db.all<ApprovalRow>(
    sql`SELECT ${APPROVAL_COLUMNS} FROM approvals
        WHERE session_id = ${sessionId} AND ${answerable()} ORDER BY seq`,
  );
  return rows.map(rowToApproval);
}

/** Give a subscriber a snapshot, unless it already has a newer one. */
function offer(sub: Subscriber, read: number, snapshot: ApprovalSnapshot): void {
  if (read <= sub.shown) return;
  if (sub.shown === 0) {
    if (!sub.early || read > sub.early.read) sub.early = { read, snapshot };
    return;
  }
  sub.shown = read;
  sub.fn(snapshot, false);
}

/** Read the session's queue after a change and give it to the session's subscribers. */
async function publish(hub: ApprovalHub, db: Db, sessionId: string): Promise<ApprovalSnapshot> {
  const read = ++hub.reads;
  const snapshot = await pendingApprovals(db, sessionId);
  for (const sub of hub.subscribers.get(sessionId) ?? []) {
    try {
      offer(sub, read, snapshot);
    } catch { /* a broken subscriber must not break the others */ }
  }
  return snapshot;
}

/**
 * Listen to a session's queue: `fn` gets the current snapshot first (`first` true), then a
 * fresh one after every change, never an older one after a newer. Resolves, once the first
 * was given, with the unsubscribe function.
 */
export async function subscribeApprovals(
  hub: ApprovalHub,
  db: AsyncQueries,
  sessionId: string,
  fn: (snapshot: ApprovalSnapshot, first: boolean) => void,
): Promise<() => void> {
  let set = hub.subscribers.get(sessionId);
  if (!set) hub.subscribers.set(sessionId, set = new Set());
  const sub: Subscriber = { fn, shown: 0 };
  set.add(sub);
  const unsubscribe = () => {
    set!.delete(sub);
    if (set!.size === 0 && hub.subscribers.get(sessionId) === set) {
      hub.subscribers.delete(sessionId);
    }
  };
  // Subscribed before reading: a change from here on is either in this read or offered after.
  const read = ++hub.reads;
  let snapshot: ApprovalSnapshot;
  try {
    snapshot = await pendingApprovals(db, sessionId);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  const first = sub.early && sub.early.read > read ? sub.early : { read, snapshot };
  sub.early = undefined;
  sub.shown = first.read;
  fn(first.snapshot, true);
  return unsubscribe;
}

async function sessionRow(
  db: AsyncQueries,
  sessionId: string,
): Promise<{ skip_approvals: boolean; workspace: string }> {
  const row = await db.get<{ skip_approvals: number; workspace: string }>(
    sql`SELECT skip_approvals, workspace FROM sessions WHERE session_id = ${sessionId}`,
  );
  if (!row) throw new NotFoundError(`Session "${sessionId}" not found`);
  return { skip_approvals: Number(row.skip_approvals) === 1, workspace: row.workspace };
}

/** The pattern keys approved for the rest of this session. */
export async function sessionApprovedKeys(
  db: AsyncQueries,
  sessionId: string,
): Promise<Set<string>> {
  const rows = await db.all<{ pattern_key: string }>(
    sql`SELECT pattern_key FROM session_approvals WHERE session_id = ${sessionId}`,
  );
  return new Set(rows.map((r) => r.pattern_key));
}

/**
 * When the person last let changed workspace code run in this session (clock seconds): the
 * latest approved request that named one of CHANGED_CODE_KEYS, or else the session's start.
 * Files whose status changed after it count as the agent's: running them asks
 * (lib/approvals/changed_files.ts). Grants that answer without asking (session, allowlist,
 * skip) leave it where it is; they approve those runs anyway.
 */
export async function changedCodeBaseline(db: AsyncQueries, sessionId: string): Promise<number> {
  const session = await db.get<{ created_at: number }>(
    sql`SELECT created_at FROM sessions WHERE session_id = ${sessionId}`,
  );
  if (!session) throw new NotFoundError(`Session "${sessionId}" not found`);
  const rows = await db.all<{ pattern_keys: string; resolved_at: number }>(
    sql`SELECT pattern_keys, resolved_at FROM approvals
        WHERE session_id = ${sessionId} AND status = 'approved' AND resolved_at IS NOT NULL
        ORDER BY resolved_at DESC`,
  );
  const codeKeys = new Set<string>(CHANGED_CODE_KEYS);
  const last = rows.find((r) =>
    parseJsonColumn<string[]>(r.pattern_keys, []).some((k) => codeKeys.has(k))
  );
  return Math.max(Number(session.created_at), Number(last?.resolved_at ?? 0));
}

/** Turn the per-session "skip approvals" switch on or off (never lifts the hardline tier). */
export async function setSkipApprovals(
  db: AsyncQueries,
  sessionId: string,
  enabled: boolean,
): Promise<boolean> {
  const { changes } = await db.run(
    sql`UPDATE sessions SET skip_approvals = ${enabled ? 1 : 0} WHERE session_id = ${sessionId}`,
  );
  if (changes === 0) throw new NotFoundError(`Session "${sessionId}" not found`);
  return enabled;
}

export async function getSkipApprovals(db: AsyncQueries, sessionId: string): Promise<boolean> {
  return (await sessionRow(db, sessionId)).skip_approvals;
}

export interface ApprovalRequest {
  sessionId: string;
  streamId?: string | null;
  command: string;
  description: string;
  patternKey: string;
  patternKeys: string[];
  /** The run's emitter: `approval` and `approval_resolved` go into its stream. */
  emit?: (event: ChatEvent) => void;
  /** The run's abort signal: cancelling the run withdraws the request. */
  signal?: AbortSignal;
  /** Override the hub's timeout for this request. */
  timeoutMs?: number;
  /** Queue even if already granted or skipped (the inject_test hook). */
  forceQueue?: boolean;
  /**
   * Nobody is watching (a scheduled task marked so): deny at once what would otherwise ask.
   * The text is the reason the agent is told.
   */
  unattended?: string;
  /** Told once the request is in the queue (stored, the run told), before any answer. */
  onQueued?: (approvalId: string) => void;
}

/**
 * Ask for approval of a dangerous command and wait for the answer. Resolves at once when the
 * session skips approvals or every pattern key is already granted (session or allowlist);
 * otherwise the request joins the session's FIFO (a row in `approvals`), an `approval` event
 * goes into the run, and the promise settles when someone answers, the timeout passes
 * (denied, "expired") or the run is cancelled. Requests are stored in the order they were
 * made (a session's FIFO and the inbox keep call order), even when their checks overlap.
 */
export async function requestApproval(
  app: ApprovalApp,
  req: ApprovalRequest,
): Promise<ApprovalDecision> {
  const hub = app.tools.approvals;
  if (hub.closed) return SHUTTING_DOWN;
  const keys = [...new Set([req.patternKey, ...req.patternKeys])].filter(Boolean);
  // Checked now, side by side with other requests; only storing waits its turn.
  const answered = answerWithoutAsking(app, req, keys);
  answered.catch(() => {}); // awaited below; this only keeps an early failure from going unheard
  const { decision } = await track(
    hub,
    inCallOrder(hub, async () => {
      const now = await answered;
      return now ? { decision: Promise.resolve(now) } : await queueRequest(app, req, keys);
    }),
  );
  return await decision;
}

/** Run `step` once the requests made before have run theirs. */
function inCallOrder<T>(hub: ApprovalHub, step: () => Promise<T>): Promise<T> {
  const mine = hub.asking.then(step);
  hub.asking = mine.then(() => {}, () => {});
  return mine;
}

/** The decision when nothing needs asking (skip, a grant, unattended), else null. */
async function answerWithoutAsking(
  app: ApprovalApp,
  req: ApprovalRequest,
  keys: string[],
): Promise<ApprovalDecision | null> {
  const hub = app.tools.approvals;
  const session = await sessionRow(app.db, req.sessionId);
  if (req.forceQueue) return null;
  if (session.skip_approvals) return { approved: true, via: "skip" };
  const granted = await sessionApprovedKeys(app.db, req.sessionId);
  const exactKey = commandGrantKey(session.workspace, req.command);
  // Standing rules as every replica sees them (the database), else as this one's config says.
  const stored = await standingRuleStates(app.db, [exactKey, ...keys]);
  const standing = (key: string, own: Set<string>) => stored.get(key) ?? own.has(key);
  if (granted.has(exactKey) || standing(exactKey, hub.exact)) {
    const via = granted.has(exactKey) ? "session" : "allowlist";
    return { approved: true, via, rule: describeGrant(exactKey) };
  }
  if (keys.length > 0 && keys.every((k) => granted.has(k) || standing(k, hub.allowlist))) {
    const via = keys.every((k) => granted.has(k)) ? "session" : "allowlist";
    return { approved: true, via, rule: keys.join(", ") };
  }
  if (req.unattended) return { approved: false, via: "unattended", message: req.unattended };
  return null;
}

/**
 * Store the request and register its waiter (or decide "cancelled" when the run already
 * was). The decision is wrapped so the caller's `await` of this step does not wait for it.
 */
async function queueRequest(
  app: ApprovalApp,
  req: ApprovalRequest,
  keys: string[],
): Promise<{ decision: Promise<ApprovalDecision> }> {
  const hub = app.tools.approvals;
  if (req.signal?.aborted) return { decision: Promise.resolve(RUN_CANCELLED) };
  const approvalId = randomHex(16);
  const pendingCount = await storeRequest(app, approvalId, req, keys);
  // From the stored row to the registered waiter nothing awaits, and no other request of this
  // process stores itself in between (inCallOrder): none can take this row for an orphan.
  let settleDecision!: (decision: ApprovalDecision) => void;
  const decision = new Promise<ApprovalDecision>((resolve) => settleDecision = resolve);
  let withdrawing = false;
  const withdraw = (via: "expired" | "cancelled") => {
    if (withdrawing || !hub.waiters.has(approvalId)) return;
    withdrawing = true;
    const ended = via === "expired"
      ? {
        approved: false,
        via,
        message: `No answer within ${Math.round((req.timeoutMs ?? hub.timeoutMs) / 1000)} s`,
      }
      : RUN_CANCELLED;
    void track(
      hub,
      withdrawRequest(app, approvalId, req.sessionId, via, ended).catch((err) => {
        app.log.warn("withdrawing an approval failed", {
          approval_id: approvalId,
          error: String(err),
        });
        hub.waiters.get(approvalId)?.settle(ended);
      }),
    );
  };
  const onAbort = () => withdraw("cancelled");
  const waiter: Waiter = {
    sessionId: req.sessionId,
    emit: req.emit,
    settle(d) {
      if (!hub.waiters.has(approvalId)) return;
      hub.waiters.delete(approvalId);
      hub.timers.clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
      settleDecision(d);
    },
  };
  hub.waiters.set(approvalId, waiter);
  const timer: TimerHandle = hub.timers.setTimeout(
    () => withdraw("expired"),
    req.timeoutMs ?? hub.timeoutMs,
  );
  req.signal?.addEventListener("abort", onAbort, { once: true });
  safeEmit(req.emit, {
    event: "approval",
    data: {
      approval_id: approvalId,
      command: req.command,
      description: req.description,
      pattern_key: keys[0] ?? req.patternKey,
      pattern_keys: keys,
      pending_count: pendingCount,
    },
  });
  // Cancelled while the row was being stored: the listener came too late to hear it.
  if (req.signal?.aborted) withdraw("cancelled");
  await publish(hub, app.db, req.sessionId);
  req.onQueued?.(approvalId);
  return { decision };
}

/**
 * Store a request at the tail of its session's FIFO (retiring orphans and old answers on the
 * way) and return how many of the session's approvals are pending with it.
 */
function storeRequest(
  app: ApprovalApp,
  approvalId: string,
  req: ApprovalRequest,
  keys: string[],
): Promise<number> {
  const hub = app.tools.approvals;
  const now = app.clock();
  return app.db.transaction(async (tx) => {
    // Rows left pending by a previous process (nobody waits on them any more) would otherwise
    // sit at the head of the FIFO and take this run's answer: a new request retires them.
    const pending = await tx.all<{ approval_id: string }>(
      sql`SELECT approval_id FROM approvals
          WHERE session_id = ${req.sessionId} AND status = 'pending'`,
    );
    const orphans = pending.map((r) => r.approval_id).filter((id) => !hub.waiters.has(id));
    if (orphans.length > 0) {
      await tx.run(
        sql`UPDATE approvals SET status = 'expired', resolved_at = ${now}, message = 'orphaned'
            WHERE status = 'pending' AND approval_id IN (${
          sql.join(orphans.map((id) => sql`${id}`))
        })`,
      );
    }
    // Answered rows are kept for a week (for inspection), then dropped.
    await tx.run(
      sql`DELETE FROM approvals
          WHERE status != 'pending' AND resolved_at < ${now - ANSWERED_RETENTION_SECONDS}`,
    );
    const next = await tx.get<{ seq: number }>(
      sql`SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM approvals
          WHERE session_id = ${req.sessionId}`,
    );
    await tx.run(
      sql`INSERT INTO approvals (approval_id, seq, session_id, stream_id, command, description,
            pattern_key, pattern_keys, status, created_at)
          VALUES (${approvalId}, ${Number(next?.seq ?? 1)}, ${req.sessionId},
            ${req.streamId ?? null}, ${req.command}, ${req.description},
            ${keys[0] ?? req.patternKey}, ${JSON.stringify(keys)}, 'pending', ${now})`,
    );
    const count = await tx.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM approvals
          WHERE session_id = ${req.sessionId} AND status = 'pending'`,
    );
    return Number(count?.n ?? 1);
  });
}

/**
 * End a request nobody answered (timeout, cancelled run): expire its row if still pending and
 * release the run. An answer that got there first stands: the timeout then hands the run that
 * answer instead (a cancelled run is released as cancelled either way).
 */
async function withdrawRequest(
  app: ApprovalApp,
  approvalId: string,
  sessionId: string,
  via: "expired" | "cancelled",
  decision: ApprovalDecision,
): Promise<void> {
  const hub = app.tools.approvals;
  const { changes } = await app.db.run(
    sql`UPDATE approvals SET status = 'expired', resolved_at = ${app.clock()}, message = ${via}
        WHERE approval_id = ${approvalId} AND status = 'pending'`,
  );
  if (changes === 0 && via === "expired" && await settleAnsweredApproval(app, approvalId)) return;
  const snapshot = await publish(hub, app.db, sessionId);
  releaseWaiter(hub, approvalId, { choice: via, pending_count: snapshot.pending_count }, decision);
}

function safeEmit(emit: ((e: ChatEvent) => void) | undefined, event: ChatEvent): void {
  try {
    emit?.(event);
  } catch { /* the run may have ended; the decision still stands */ }
}

export interface ApprovalResponse {
  sessionId: string;
  choice: ApprovalChoice;
  approvalId?: string;
  message?: string;
  /** What `session`/`always` cover: `pattern` (default, as the original) or `command`. */
  scope?: ApprovalScope;
  /** Edit-then-run: the command to run instead (once only; judged again, see approval_edit.ts). */
  command?: string;
}

/**
 * Answer a pending approval (the one named, or the head of the session's FIFO). `session`
 * grants its pattern keys for the rest of the session, `always` also adds them to the config
 * allowlist (comments and `${ENV}` strings kept). An id that is not pending → ConflictError.
 */
export async function resolveApproval(
  app: ApprovalApp,
  res: ApprovalResponse,
): Promise<
  {
    ok: true;
    choice: ApprovalChoice;
    scope?: ApprovalScope;
    approval_id: string;
    pending_count: number;
    command?: string;
    /** Whether the run waiting for it is in this process (else another replica's, see routes). */
    delivered: boolean;
  }
> {
  if (!APPROVAL_CHOICES.includes(res.choice)) {
    throw new ValidationError(
      `Invalid choice "${res.choice}"; expected one of ${APPROVAL_CHOICES.join(", ")}`,
      "choice",
    );
  }
  const scope = res.scope ?? "pattern";
  if (!APPROVAL_SCOPES.includes(scope)) {
    throw new ValidationError(
      `Invalid scope "${scope}"; expected one of ${APPROVAL_SCOPES.join(", ")}`,
      "scope",
    );
  }
  const hub = app.tools.approvals;
  const { workspace } = await sessionRow(app.db, res.sessionId);
  let row: ApprovalRow & { status: string } | undefined;
  if (res.approvalId) {
    row = await app.db.get<ApprovalRow & { status: string }>(
      sql`SELECT ${APPROVAL_COLUMNS}, status FROM approvals
          WHERE approval_id = ${res.approvalId} AND session_id = ${res.sessionId}`,
    );
    if (!row || row.status !== "pending") {
      throw new ConflictError(
        `Approval "${res.approvalId}" is no longer pending` +
          (row ? ` (it was ${row.status})` : " in this session"),
      );
    }
  } else {
    row = await app.db.get<ApprovalRow & { status: string }>(
      sql`SELECT ${APPROVAL_COLUMNS}, status FROM approvals
          WHERE session_id = ${res.sessionId} AND status = 'pending' ORDER BY seq LIMIT 1`,
    );
    if (!row) throw new ConflictError(`Session "${res.sessionId}" has no pending approval`);
  }
  const approval = rowToApproval(row);
  const approved = res.choice !== "deny";
  const edited = checkEditedCommand({
    original: approval.command,
    patternKey: approval.pattern_key,
    choice: res.choice,
    command: res.command,
  }, { configPath: app.config.configPath, home: app.config.home ?? "", workspace });
  const exactKey = commandGrantKey(workspace, approval.command);
  const grantKeys = scope === "command" ? [exactKey] : approval.pattern_keys;
  if (res.choice === "always") {
    // Write the allowlist first: if the config cannot be written, nothing is decided. (An
    // "always" that then loses a race to another answer keeps its entry: the person asked.)
    // Each standing rule records when it was made (Control Center › Standing approvals).
    // The database row is what every other replica reads (standing_rules_store.ts).
    if (scope === "command") {
      await addCommandRule(app.config.configPath, workspace, approval.command, app.clock());
      hub.exact.add(exactKey);
      await recordStandingRule(app.db, {
        rule_key: exactKey,
        kind: "command",
        workspace,
        command: approval.command.trim(),
      }, app.clock());
    } else {
      await addCategoryRules(app.config.configPath, approval.pattern_keys, app.clock());
      for (const k of approval.pattern_keys) {
        hub.allowlist.add(k);
        await recordStandingRule(app.db, {
          rule_key: k,
          kind: "category",
          workspace: null,
          command: null,
        }, app.clock());
      }
    }
  }
  // The answer is one conditional statement: of two answers racing (two tabs, two replicas)
  // exactly one finds the row pending and applies, with its session grants in the same
  // transaction; the other changes nothing and is refused below.
  const applied = await app.db.transaction(async (tx) => {
    const { changes } = await tx.run(
      sql`UPDATE approvals SET status = ${approved ? "approved" : "denied"}, choice = ${res.choice},
            message = ${res.message ?? null}, resolved_at = ${app.clock()},
            edited_command = ${edited ?? null}
          WHERE approval_id = ${approval.approval_id} AND status = 'pending'`,
    );
    if (changes !== 1) return false;
    if ((res.choice === "session" || res.choice === "always") && grantKeys.length > 0) {
      await tx.run(
        sql`INSERT INTO session_approvals (session_id, pattern_key)
            VALUES ${sql.join(grantKeys.map((k) => sql`(${res.sessionId}, ${k})`))}
            ON CONFLICT DO NOTHING`,
      );
    }
    return true;
  });
  if (!applied) {
    const now = await app.db.get<{ status: string }>(
      sql`SELECT status FROM approvals WHERE approval_id = ${approval.approval_id}`,
    );
    throw new ConflictError(
      `Approval "${approval.approval_id}" is no longer pending` +
        (now ? ` (it was ${now.status})` : ""),
    );
  }
  // Whether the run waiting for it is in this process (checked before any await can let a
  // racing timeout release it).
  const here = hub.waiters.has(approval.approval_id);
  const snapshot = await publish(hub, app.db, res.sessionId);
  releaseWaiter(
    hub,
    approval.approval_id,
    { choice: res.choice, pending_count: snapshot.pending_count },
    {
      approved,
      choice: res.choice,
      message: res.message,
      via: "user",
      ...(edited ? { command: edited } : {}),
    },
  );
  app.log.info("approval answered", {
    session_id: res.sessionId,
    approval_id: approval.approval_id,
    choice: res.choice,
    scope,
    pattern_keys: approval.pattern_keys,
  });
  return {
    ok: true,
    choice: res.choice,
    ...(res.scope ? { scope: res.scope } : {}),
    approval_id: approval.approval_id,
    pending_count: snapshot.pending_count,
    ...(edited ? { command: edited } : {}),
    delivered: here,
  };
}
