// Approvals of dangerous terminal commands: a per-session FIFO of pending requests persisted in
// the `approvals` table (a reload shows them), an in-process per-app hub that wakes the waiting
// run and feeds /api/approval/stream, session-scoped and permanent (config.yaml allowlist)
// grants, a per-session "skip approvals" switch and a timeout. Invariant: none of this is ever
// consulted for the hardline tier — the terminal tool refuses those before asking.
import type { ChatEvent } from "../shared/chat_events.ts";
import { type Db, parseJsonColumn, transaction } from "../storage/db.ts";
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

/** Per-app approval state (hang it off AppContext; nothing here is process-global). */
export interface ApprovalHub {
  waiters: Map<string, Waiter>;
  subscribers: Map<string, Set<(snapshot: ApprovalSnapshot) => void>>;
  /** Pattern keys approved forever (config.yaml `command_allowlist`). */
  allowlist: Set<string>;
  /** Exact-command keys approved forever (config.yaml `command_allowlist_commands`). */
  exact: Set<string>;
  timeoutMs: number;
  timers: Timers;
  /** Open /api/approval/stream responses, closed with the app. */
  streams: Set<() => void>;
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
  };
}

/**
 * Shut the hub down with the app: waiting runs are released (not approved), streams end.
 * Pending rows stay in the database, so after a restart the queue is still visible.
 */
export function closeApprovalHub(hub: ApprovalHub): void {
  for (const w of [...hub.waiters.values()]) {
    w.settle({ approved: false, via: "cancelled", message: "The server is shutting down" });
  }
  for (const close of [...hub.streams]) close();
}

function rowToApproval(row: Record<string, unknown>): Approval {
  return {
    approval_id: row.approval_id as string,
    session_id: row.session_id as string,
    stream_id: (row.stream_id as string | null) ?? null,
    command: row.command as string,
    description: row.description as string,
    pattern_key: row.pattern_key as string,
    pattern_keys: parseJsonColumn<string[]>(row.pattern_keys, []),
    created_at: row.created_at as number,
  };
}

/**
 * An approval still pending whose run no longer runs (its process stopped: the journal's
 * recovery marked the run interrupted) is an orphan: answering it could never run anything.
 * Expire them, so a reload shows no card that dead-ends. Approvals of runs still running — on
 * another replica sharing the database — are left alone.
 */
export function expireOrphanedApprovals(db: Db, clock: Clock): number {
  const res = db.prepare(
    `UPDATE approvals SET status = 'expired', resolved_at = ?,
       message = 'The server restarted before this was answered'
     WHERE status = 'pending' AND (stream_id IS NULL OR stream_id NOT IN
       (SELECT stream_id FROM streams WHERE status = 'running'))`,
  ).run(clock());
  return Number(res.changes);
}

/**
 * Settle this process's waiter for an approval that another replica answered: the answer is
 * in the approval's row (lib/replicas/run_leases.ts brings the command here). Returns whether
 * a waiter was settled.
 */
export function settleAnsweredApproval(app: ApprovalApp, approvalId: string): boolean {
  const hub = app.tools.approvals;
  const waiter = hub.waiters.get(approvalId);
  if (!waiter) return false;
  const row = app.db.prepare("SELECT * FROM approvals WHERE approval_id = ?").get(approvalId) as
    | Record<string, unknown>
    | undefined;
  if (!row || row.status === "pending") return false;
  const approval = rowToApproval(row);
  const choice = row.choice as ApprovalChoice;
  // "always" wrote config.yaml on the replica that answered; this one learns the keys now.
  if (choice === "always") { for (const k of approval.pattern_keys) hub.allowlist.add(k); }
  const snapshot = publish(hub, app.db, approval.session_id);
  safeEmit(waiter.emit, {
    event: "approval_resolved",
    data: { approval_id: approvalId, choice, pending_count: snapshot.pending_count },
  });
  const edited = row.edited_command as string | null;
  waiter.settle({
    approved: row.status === "approved",
    choice,
    message: (row.message as string | null) ?? undefined,
    via: "user",
    ...(edited ? { command: edited } : {}),
  });
  return true;
}

/** The head of a session's queue and its length. */
export function pendingApprovals(db: Db, sessionId: string): ApprovalSnapshot {
  const head = db.prepare(
    `SELECT * FROM approvals WHERE session_id = ? AND status = 'pending' ORDER BY seq LIMIT 1`,
  ).get(sessionId) as Record<string, unknown> | undefined;
  const { n } = db.prepare(
    "SELECT COUNT(*) AS n FROM approvals WHERE session_id = ? AND status = 'pending'",
  ).get(sessionId) as { n: number };
  return { pending: head ? rowToApproval(head) : null, pending_count: n };
}

/** Every pending approval of a session, oldest first. */
export function listPendingApprovals(db: Db, sessionId: string): Approval[] {
  return (db.prepare(
    "SELECT * FROM approvals WHERE session_id = ? AND status = 'pending' ORDER BY seq",
  ).all(sessionId) as Record<string, unknown>[]).map(rowToApproval);
}

function publish(hub: ApprovalHub, db: Db, sessionId: string): ApprovalSnapshot {
  const snapshot = pendingApprovals(db, sessionId);
  for (const fn of hub.subscribers.get(sessionId) ?? []) {
    try {
      fn(snapshot);
    } catch { /* a broken subscriber must not break the others */ }
  }
  return snapshot;
}

/** Listen to a session's queue; returns the unsubscribe function. */
export function subscribeApprovals(
  hub: ApprovalHub,
  sessionId: string,
  fn: (snapshot: ApprovalSnapshot) => void,
): () => void {
  let set = hub.subscribers.get(sessionId);
  if (!set) hub.subscribers.set(sessionId, set = new Set());
  set.add(fn);
  return () => {
    set!.delete(fn);
    if (set!.size === 0 && hub.subscribers.get(sessionId) === set) {
      hub.subscribers.delete(sessionId);
    }
  };
}

function sessionRow(db: Db, sessionId: string): { skip_approvals: number; workspace: string } {
  const row = db.prepare("SELECT skip_approvals, workspace FROM sessions WHERE session_id = ?").get(
    sessionId,
  ) as { skip_approvals: number; workspace: string } | undefined;
  if (!row) throw new NotFoundError(`Session "${sessionId}" not found`);
  return row;
}

/** The pattern keys approved for the rest of this session. */
export function sessionApprovedKeys(db: Db, sessionId: string): Set<string> {
  const rows = db.prepare("SELECT pattern_key FROM session_approvals WHERE session_id = ?").all(
    sessionId,
  ) as Array<{ pattern_key: string }>;
  return new Set(rows.map((r) => r.pattern_key));
}

/**
 * When the person last let changed workspace code run in this session (clock seconds): the
 * latest approved request that named one of CHANGED_CODE_KEYS, or else the session's start.
 * Files whose status changed after it count as the agent's: running them asks
 * (lib/approvals/changed_files.ts). Grants that answer without asking (session, allowlist,
 * skip) leave it where it is; they approve those runs anyway.
 */
export function changedCodeBaseline(db: Db, sessionId: string): number {
  const session = db.prepare("SELECT created_at FROM sessions WHERE session_id = ?").get(
    sessionId,
  ) as { created_at: number } | undefined;
  if (!session) throw new NotFoundError(`Session "${sessionId}" not found`);
  const rows = db.prepare(
    `SELECT pattern_keys, resolved_at FROM approvals
     WHERE session_id = ? AND status = 'approved' AND resolved_at IS NOT NULL
     ORDER BY resolved_at DESC`,
  ).all(sessionId) as Array<{ pattern_keys: string; resolved_at: number }>;
  const codeKeys = new Set<string>(CHANGED_CODE_KEYS);
  const last = rows.find((r) =>
    parseJsonColumn<string[]>(r.pattern_keys, []).some((k) => codeKeys.has(k))
  );
  return Math.max(session.created_at, last?.resolved_at ?? 0);
}

/** Turn the per-session "skip approvals" switch on or off (never lifts the hardline tier). */
export function setSkipApprovals(db: Db, sessionId: string, enabled: boolean): boolean {
  sessionRow(db, sessionId);
  db.prepare("UPDATE sessions SET skip_approvals = ? WHERE session_id = ?").run(
    enabled ? 1 : 0,
    sessionId,
  );
  return enabled;
}

export function getSkipApprovals(db: Db, sessionId: string): boolean {
  return sessionRow(db, sessionId).skip_approvals === 1;
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
}

/**
 * Ask for approval of a dangerous command and wait for the answer. Resolves at once when the
 * session skips approvals or every pattern key is already granted (session or allowlist);
 * otherwise the request joins the session's FIFO (a row in `approvals`), an `approval` event
 * goes into the run, and the promise settles when someone answers, the timeout passes
 * (denied, "expired") or the run is cancelled.
 */
export function requestApproval(app: ApprovalApp, req: ApprovalRequest): Promise<ApprovalDecision> {
  const hub = app.tools.approvals;
  const keys = [...new Set([req.patternKey, ...req.patternKeys])].filter(Boolean);
  const session = sessionRow(app.db, req.sessionId);
  if (req.forceQueue) {
    // fall through to the queue
  } else if (session.skip_approvals === 1) return Promise.resolve({ approved: true, via: "skip" });
  const granted = sessionApprovedKeys(app.db, req.sessionId);
  const exactKey = commandGrantKey(session.workspace, req.command);
  if (!req.forceQueue && (granted.has(exactKey) || hub.exact.has(exactKey))) {
    const via = granted.has(exactKey) ? "session" : "allowlist";
    return Promise.resolve({ approved: true, via, rule: describeGrant(exactKey) });
  }
  if (
    !req.forceQueue && keys.length > 0 && keys.every((k) => granted.has(k) || hub.allowlist.has(k))
  ) {
    const via = keys.every((k) => granted.has(k)) ? "session" : "allowlist";
    return Promise.resolve({ approved: true, via, rule: keys.join(", ") });
  }
  if (req.signal?.aborted) return Promise.resolve({ approved: false, via: "cancelled" });
  if (req.unattended && !req.forceQueue) {
    return Promise.resolve({ approved: false, via: "unattended", message: req.unattended });
  }

  const approvalId = randomHex(16);
  const now = app.clock();
  transaction(app.db, () => {
    // Rows left pending by a previous process (nobody waits on them any more) would otherwise
    // sit at the head of the FIFO and take this run's answer: a new request retires them.
    const orphans = app.db.prepare(
      "SELECT approval_id FROM approvals WHERE session_id = ? AND status = 'pending'",
    ).all(req.sessionId) as Array<{ approval_id: string }>;
    const expire = app.db.prepare(
      `UPDATE approvals SET status = 'expired', resolved_at = ?, message = 'orphaned'
       WHERE approval_id = ?`,
    );
    for (const o of orphans) if (!hub.waiters.has(o.approval_id)) expire.run(now, o.approval_id);
    // Answered rows are kept for a week (for inspection), then dropped.
    app.db.prepare(
      "DELETE FROM approvals WHERE status != 'pending' AND resolved_at < ?",
    ).run(now - ANSWERED_RETENTION_SECONDS);
    const { seq } = app.db.prepare(
      "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM approvals WHERE session_id = ?",
    ).get(req.sessionId) as { seq: number };
    app.db.prepare(
      `INSERT INTO approvals (approval_id, seq, session_id, stream_id, command, description,
         pattern_key, pattern_keys, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    ).run(
      approvalId,
      seq,
      req.sessionId,
      req.streamId ?? null,
      req.command,
      req.description,
      keys[0] ?? req.patternKey,
      JSON.stringify(keys),
      now,
    );
  });

  return new Promise<ApprovalDecision>((resolve) => {
    const onAbort = () => expire("cancelled");
    const waiter: Waiter = {
      sessionId: req.sessionId,
      emit: req.emit,
      settle(decision) {
        if (!hub.waiters.has(approvalId)) return;
        hub.waiters.delete(approvalId);
        hub.timers.clearTimeout(timer);
        req.signal?.removeEventListener("abort", onAbort);
        resolve(decision);
      },
    };
    const expire = (via: "expired" | "cancelled") => {
      if (!hub.waiters.has(approvalId)) return;
      app.db.prepare(
        `UPDATE approvals SET status = 'expired', resolved_at = ?, message = ?
         WHERE approval_id = ? AND status = 'pending'`,
      ).run(app.clock(), via, approvalId);
      const snapshot = publish(hub, app.db, req.sessionId);
      safeEmit(req.emit, {
        event: "approval_resolved",
        data: { approval_id: approvalId, choice: via, pending_count: snapshot.pending_count },
      });
      waiter.settle({
        approved: false,
        via,
        message: via === "expired"
          ? `No answer within ${Math.round((req.timeoutMs ?? hub.timeoutMs) / 1000)} s`
          : "The run was cancelled",
      });
    };
    hub.waiters.set(approvalId, waiter);
    const timer: TimerHandle = hub.timers.setTimeout(
      () => expire("expired"),
      req.timeoutMs ?? hub.timeoutMs,
    );
    req.signal?.addEventListener("abort", onAbort, { once: true });
    const snapshot = publish(hub, app.db, req.sessionId);
    safeEmit(req.emit, {
      event: "approval",
      data: {
        approval_id: approvalId,
        command: req.command,
        description: req.description,
        pattern_key: keys[0] ?? req.patternKey,
        pattern_keys: keys,
        pending_count: snapshot.pending_count,
      },
    });
  });
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
  const { workspace } = sessionRow(app.db, res.sessionId);
  let row: Record<string, unknown> | undefined;
  if (res.approvalId) {
    row = app.db.prepare("SELECT * FROM approvals WHERE approval_id = ? AND session_id = ?").get(
      res.approvalId,
      res.sessionId,
    ) as Record<string, unknown> | undefined;
    if (!row || row.status !== "pending") {
      throw new ConflictError(
        `Approval "${res.approvalId}" is no longer pending` +
          (row ? ` (it was ${row.status})` : " in this session"),
      );
    }
  } else {
    row = app.db.prepare(
      "SELECT * FROM approvals WHERE session_id = ? AND status = 'pending' ORDER BY seq LIMIT 1",
    ).get(res.sessionId) as Record<string, unknown> | undefined;
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
    // Write the allowlist first: if the config cannot be written, nothing is decided.
    // Each standing rule records when it was made (Control Center › Standing approvals).
    if (scope === "command") {
      await addCommandRule(app.config.configPath, workspace, approval.command, app.clock());
      hub.exact.add(exactKey);
    } else {
      await addCategoryRules(app.config.configPath, approval.pattern_keys, app.clock());
      for (const k of approval.pattern_keys) hub.allowlist.add(k);
    }
  }
  const changed = transaction(app.db, () => {
    const r = app.db.prepare(
      `UPDATE approvals SET status = ?, choice = ?, message = ?, resolved_at = ?,
       edited_command = ? WHERE approval_id = ? AND status = 'pending'`,
    ).run(
      approved ? "approved" : "denied",
      res.choice,
      res.message ?? null,
      app.clock(),
      edited ?? null,
      approval.approval_id,
    );
    if (r.changes === 0) return false;
    if (res.choice === "session" || res.choice === "always") {
      const ins = app.db.prepare(
        "INSERT INTO session_approvals (session_id, pattern_key) VALUES (?, ?) ON CONFLICT DO NOTHING",
      );
      for (const k of grantKeys) ins.run(res.sessionId, k);
    }
    return true;
  });
  if (!changed) throw new ConflictError(`Approval "${approval.approval_id}" is no longer pending`);
  const snapshot = publish(hub, app.db, res.sessionId);
  const waiter = hub.waiters.get(approval.approval_id);
  if (waiter) {
    safeEmit(waiter.emit, {
      event: "approval_resolved",
      data: {
        approval_id: approval.approval_id,
        choice: res.choice,
        pending_count: snapshot.pending_count,
      },
    });
    waiter.settle({
      approved,
      choice: res.choice,
      message: res.message,
      via: "user",
      ...(edited ? { command: edited } : {}),
    });
  }
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
    delivered: !!waiter,
  };
}
