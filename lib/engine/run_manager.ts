// The runs of one app: starting a turn (persist the user message, claim the session, run the
// agent in the background), retry, manual compression, cancel, lookup for SSE, and start-up
// recovery of runs a previous process left unfinished. Invariants: one instance per app (no
// process-global state); a session has at most one active run; a run continues whether or
// not anyone listens; the HTTP caller gets its ids before the agent does any work.
import { sharedFilesDir } from "../settings/config.ts";
import type { AppConfig } from "../settings/config.ts";
import type { EngineHost } from "./engine_host.ts";
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { type Clock, newStreamId, randomHex } from "../ids.ts";
import type { Logger } from "../log.ts";
import { appendMessages, listMessages, truncateMessages } from "../sessions/messages.ts";
import { getSession, normalizeTitle, UNTITLED, updateSession } from "../sessions/sessions.ts";
import { publishSessionsChanged } from "../sessions/session_events.ts";
import { resolveTrustedWorkspace } from "../workspace/workspaces.ts";
import {
  abandonClaim,
  claimSession,
  createEventAppender,
  type EventAppender,
  pruneJournal,
  recoverInterruptedStreams,
} from "./journal.ts";
import type { RunMode } from "./agent_loop.ts";
import { type EngineOptions, engineOptionsFromConfig } from "./engine_options.ts";
import { Run } from "./run.ts";
import { setToolCallStatus } from "./tool_runner.ts";
import { attachmentFields } from "./model_messages.ts";
import { resolveAttachment } from "../workspace/uploads.ts";
import { mimeForName, sniffImage } from "../workspace/mime.ts";
import { expireOrphanedApprovals } from "../approvals/approvals.ts";
import { type LeaseTimings, type RunCommand, RunLeases } from "../replicas/run_leases.ts";
import { pushSteer } from "./steer.ts";

async function readHead(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path);
  try {
    const buf = new Uint8Array(64);
    const n = await file.read(buf);
    return buf.subarray(0, n ?? 0);
  } finally {
    file.close();
  }
}

export interface StartInput {
  sessionId: string;
  message: string;
  model?: string;
  modelProvider?: string;
  workspace?: string;
  attachments?: unknown[];
}

export interface StartResult {
  stream_id: string;
  session_id: string;
  turn_id: string;
  title: string;
}

/** A title from the first user message: one line, whitespace collapsed, ≤ 80 characters. */
export function deriveTitle(message: string): string {
  const line = message.replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  if (chars.length <= 80) return normalizeTitle(line);
  const cut = chars.slice(0, 79).join("");
  const space = cut.lastIndexOf(" ");
  return normalizeTitle((space > 40 ? cut.slice(0, space) : cut) + "…");
}

/**
 * The agent loop (tools, prompts, compression, the provider stack) is imported by the first
 * run, not at start-up: an idle console does not pay for it in memory.
 */
let agentLoop: Promise<typeof import("./agent_loop.ts")> | undefined;
const loadAgentLoop = () =>
  agentLoop ??= import("./agent_loop.ts").catch((err) => {
    agentLoop = undefined;
    throw err;
  });

function noUserMessage(sessionId: string): ValidationError {
  return new ValidationError(`Session "${sessionId}" has no user message to retry`, "session_id");
}

export class RunManager {
  private overrides: Partial<EngineOptions>;
  private runs = new Map<string, Run>();
  /**
   * Streams claimed here whose run has not launched yet. Their leases are renewed like a
   * running run's: the claim awaits the database, and on a busy server the time until launch
   * could outlast a lease, and another replica's sweep would close the run before it began.
   */
  private starting = new Set<string>();
  private append: EventAppender;
  private closed = false;
  /** Leases and commands between replicas (lib/replicas/run_leases.ts; idle on SQLite). */
  readonly leases: RunLeases;
  /** What a command from another replica does here besides cancel and steer (approvals, clarify). */
  private commandHandlers = new Map<RunCommand["kind"], (cmd: RunCommand) => void>();

  /**
   * Settles once the start-up recovery is done (rejects if it failed): the app awaits it before
   * it serves (main.ts), and every start of a run awaits it too.
   */
  readonly ready: Promise<void>;

  /**
   * Starts recovering the runs a previous process left `running` (see journal.ts) before
   * anything else (`ready`): every one on a database this process alone uses, only those with
   * an expired lease on a shared one.
   */
  constructor(
    private deps: { db: Db; clock: Clock; log: Logger; leases?: LeaseTimings },
    overrides: Partial<EngineOptions> = {},
  ) {
    this.overrides = overrides;
    this.append = createEventAppender(deps.db, deps.clock);
    this.leases = new RunLeases(deps);
    this.ready = this.recover(overrides);
    // Reported here too, so a failure nobody awaits is not an unhandled rejection.
    this.ready.catch((err) =>
      deps.log.error("could not recover the runs of the last process", { error: String(err) })
    );
  }

  private async recover(overrides: Partial<EngineOptions>): Promise<void> {
    const { db, clock, log } = this.deps;
    const recovered = await recoverInterruptedStreams(
      db,
      clock,
      this.leases.bus.shared ? this.leases.recoverable() : {},
    );
    if (recovered.length) {
      log.warn(`marked ${recovered.length} unfinished run(s) as interrupted`, {
        streams: recovered.map((s) => s.stream_id),
      });
    }
    const orphaned = await expireOrphanedApprovals(db, clock);
    if (orphaned) log.warn(`expired ${orphaned} approval(s) left pending by the last process`);
    await pruneJournal(db, clock, (overrides.journalRetentionDays ?? 14) * 86400);
    if (this.closed) return;
    this.leases.start(
      (cmd) => this.onCommand(cmd),
      () => [
        ...this.starting,
        ...[...this.runs.values()].flatMap((r) => [r.streamId, ...r.childStreams]),
      ],
    );
  }

  /** Handle commands of `kind` that other replicas send to this one's runs. */
  onReplicaCommand(kind: RunCommand["kind"], handler: (cmd: RunCommand) => void): void {
    this.commandHandlers.set(kind, handler);
  }

  private async onCommand(cmd: RunCommand): Promise<void> {
    if (cmd.kind === "cancel" && cmd.stream_id) await this.cancel(cmd.stream_id);
    else if (cmd.kind === "steer" && cmd.stream_id) {
      const run = this.runs.get(cmd.stream_id);
      if (run) pushSteer(run, String(cmd.payload.text ?? ""));
    } else this.commandHandlers.get(cmd.kind)?.(cmd);
  }

  /** Change engine options for later runs (main.ts wires tool hooks; tests shorten timeouts). */
  configure(overrides: Partial<EngineOptions>): void {
    this.overrides = { ...this.overrides, ...overrides };
  }

  /** The options a run started now would use: config.yaml (re-read each run), then overrides. */
  options(config: AppConfig): EngineOptions {
    return engineOptionsFromConfig(config, this.overrides);
  }

  /** The live run of a stream, if it is still running in this process. */
  get(streamId: string): Run | undefined {
    return this.runs.get(streamId);
  }

  /** Number of runs in progress. */
  get activeCount(): number {
    return this.runs.size;
  }

  /** POST /api/chat/start: persist the message, claim the session, start the agent. */
  async start(app: EngineHost, input: StartInput): Promise<StartResult> {
    const { db, clock } = this.deps;
    const message = input.message.trim();
    if (!message && !(input.attachments?.length)) {
      throw new ValidationError("message is required", "message");
    }
    await this.ready;
    const session = await getSession(db, input.sessionId);
    this.refuseIfActive(session.session_id, session.active_stream_id);
    const workspace = input.workspace && input.workspace !== session.workspace
      ? await resolveTrustedWorkspace({ db, config: app.config }, input.workspace)
      : undefined;
    const attachments = await this.checkAttachments(app, session.session_id, input.attachments);
    const streamId = newStreamId();
    const turnId = randomHex(16);
    await this.claim(
      session.session_id,
      streamId,
      turnId,
      input.model ?? session.model,
      input.modelProvider ?? session.model_provider,
    );
    let title = session.title;
    let newTitle: string | undefined;
    try {
      if (workspace || input.model !== undefined || input.modelProvider !== undefined) {
        await updateSession(db, clock, session.session_id, {
          ...(workspace ? { workspace } : {}),
          ...(input.model !== undefined ? { model: input.model || null } : {}),
          ...(input.modelProvider !== undefined
            ? { model_provider: input.modelProvider || null }
            : {}),
        });
      }
      const firstTurn = !(await listMessages(db, session.session_id)).some((m) =>
        m.role === "user"
      );
      await appendMessages(db, clock, session.session_id, [{
        role: "user",
        content: input.message,
        turn_id: turnId,
        ...(attachments.length ? { attachments } : {}),
      }]);
      if (firstTurn && session.title === UNTITLED) {
        newTitle = deriveTitle(
          message || String((input.attachments?.[0] as { filename?: string })?.filename ?? ""),
        );
        if (newTitle !== UNTITLED) {
          title = (await updateSession(db, clock, session.session_id, { title: newTitle }))
            .title;
        } else newTitle = undefined;
      }
    } catch (err) {
      await this.abandon(session.session_id, streamId);
      throw err;
    }
    this.launch(app, { streamId, sessionId: session.session_id, turnId }, "chat", newTitle);
    return { stream_id: streamId, session_id: session.session_id, turn_id: turnId, title };
  }

  /**
   * POST /api/session/retry {run: true} and regenerate: drop the last answer and run the last
   * user message again. The last user message is read again after the claim, in the transaction
   * that drops the answer: a rewind or undo that got in first (they refuse a claimed session)
   * is seen, never cut a second time. `beforeDrop` runs in that transaction (regenerate keeps
   * the answer as a variant there); `onDrop` hears what was dropped.
   */
  async retry(
    app: EngineHost,
    sessionId: string,
    beforeDrop?: (tx: AsyncQueries) => Promise<void>,
    onDrop?: (dropped: { lastUserText: string; removed: number }) => void,
  ): Promise<StartResult> {
    const { db, clock } = this.deps;
    await this.ready;
    const session = await getSession(db, sessionId);
    this.refuseIfActive(sessionId, session.active_stream_id);
    const lastUser = (await listMessages(db, sessionId)).findLast((m) => m.role === "user");
    if (!lastUser) throw noUserMessage(sessionId);
    const streamId = newStreamId();
    const turnId = lastUser.turn_id ?? randomHex(16);
    await this.claim(sessionId, streamId, turnId, session.model, session.model_provider);
    try {
      const dropped = await db.transaction(async (tx) => {
        const current = await tx.get<{ idx: number; content: string; turn_id: string | null }>(
          sql`SELECT idx, content, turn_id FROM messages
              WHERE session_id = ${sessionId} AND role = 'user' ORDER BY idx DESC LIMIT 1`,
        );
        if (!current) throw noUserMessage(sessionId);
        if (current.idx !== lastUser.idx || current.turn_id !== (lastUser.turn_id ?? null)) {
          throw new ConflictError(`The last turn of session "${sessionId}" changed; try again`);
        }
        await beforeDrop?.(tx);
        const removed = await truncateMessages(tx, sessionId, current.idx + 1, clock());
        if (current.turn_id) {
          await tx.run(
            sql`DELETE FROM tool_calls
                WHERE session_id = ${sessionId} AND turn_id = ${current.turn_id}`,
          );
        }
        return { lastUserText: current.content, removed };
      });
      onDrop?.(dropped);
    } catch (err) {
      await this.abandon(sessionId, streamId);
      throw err;
    }
    this.launch(app, { streamId, sessionId, turnId }, "chat");
    return { stream_id: streamId, session_id: sessionId, turn_id: turnId, title: session.title };
  }

  /** POST /api/session/compress: summarize older turns now, as a run of its own. */
  async compress(app: EngineHost, sessionId: string, focus?: string): Promise<StartResult> {
    await this.ready;
    const session = await getSession(this.deps.db, sessionId);
    this.refuseIfActive(sessionId, session.active_stream_id);
    const streamId = newStreamId();
    const turnId = randomHex(16);
    await this.claim(sessionId, streamId, turnId, session.model, session.model_provider);
    this.launch(app, { streamId, sessionId, turnId }, "compress", undefined, focus);
    return { stream_id: streamId, session_id: sessionId, turn_id: turnId, title: session.title };
  }

  /**
   * GET /api/chat/cancel: stop the run now. Keeps the partial answer, marks the running tool
   * as an error, emits `cancel`, frees the session. Idempotent: false if nothing was running.
   * Resolves once the end is recorded (the session is free then).
   */
  async cancel(streamId: string): Promise<boolean> {
    const run = this.runs.get(streamId);
    if (!run) {
      return await this.leases.forward({ kind: "cancel", stream_id: streamId, payload: {} });
    }
    if (run.finished) return false;
    run.controller.abort(new Error("cancelled by user"));
    // The running tool call is marked first (its write starts before the end's transaction),
    // and the run ends at once, with no await between: the aborted loop emits nothing more.
    const marked = run.activeToolCallId
      ? setToolCallStatus(this.deps.db, run.sessionId, run.activeToolCallId, "error", {
        result: "Cancelled by user",
        duration: 0,
      }).catch((err) =>
        this.deps.log.error("could not mark a cancelled tool call", { error: String(err) })
      )
      : undefined;
    const ended = run.end("cancelled", [{
      event: "cancel",
      data: { message: "Cancelled by user", type: "cancelled" },
    }]);
    await marked;
    await ended;
    // Only now: until its end is recorded, a reader of the stream follows it live.
    if (this.runs.get(streamId) === run) this.runs.delete(streamId);
    return true;
  }

  /**
   * Cancel whatever runs in `sessionId` (before the session is deleted, cleared or reset).
   * Returns the stream id that was cancelled, if any.
   */
  async cancelSession(sessionId: string): Promise<string | null> {
    for (const run of [...this.runs.values()]) {
      if (run.sessionId === sessionId && await this.cancel(run.streamId)) return run.streamId;
    }
    // Or another replica runs it.
    const row = await this.deps.db.get<{ active_stream_id: string | null }>(
      sql`SELECT active_stream_id FROM sessions WHERE session_id = ${sessionId}`,
    );
    const active = row?.active_stream_id;
    return active && await this.leases.forward({ kind: "cancel", stream_id: active, payload: {} })
      ? active
      : null;
  }

  /** Stop every run without final events (server shutdown); the next start marks them interrupted. */
  async close(): Promise<void> {
    this.closed = true;
    this.leases.endFollowers();
    const runs = [...this.runs.values()];
    // Each halt writes what its run emitted and its partial answer before the database closes.
    await Promise.allSettled(runs.map((run) => run.halt()));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(runs.map((r) => r.done)),
      new Promise((r) => (timer = setTimeout(r, 2000))),
    ]);
    clearTimeout(timer);
    this.runs.clear();
    try {
      await this.ready.catch(() => {});
      await this.leases.releaseLeases();
    } catch { /* the database is gone: the leases expire by themselves */ }
    this.leases.close();
  }

  /**
   * Resolve every attachment named in chat/start to a file in the session's uploads (404
   * otherwise: a path elsewhere on disk is never read) and store it as an upload row.
   */
  private async checkAttachments(
    app: EngineHost,
    sessionId: string,
    list: unknown[] | undefined,
  ): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const a of list ?? []) {
      const f = attachmentFields(a);
      if (!f.ref) {
        throw new ValidationError("Each attachment needs a path or filename", "attachments");
      }
      const path = await resolveAttachment(sharedFilesDir(app.config), sessionId, f.ref);
      const { size } = await Deno.stat(path);
      const filename = path.split("/").pop()!;
      const head = await readHead(path);
      const image = sniffImage(head);
      out.push({
        filename,
        path,
        size,
        mime: image ?? (f.mime || mimeForName(filename)),
        is_image: !!image,
      });
    }
    return out;
  }

  private refuseIfActive(sessionId: string, active: string | null): void {
    if (active) {
      throw new ConflictError("session already has an active stream", { active_stream_id: active });
    }
    void sessionId;
  }

  /** Claim the session for a new run, or answer 409 naming the run that holds it. */
  private async claim(
    sessionId: string,
    streamId: string,
    turnId: string,
    model: string | null | undefined,
    provider: string | null | undefined,
  ): Promise<void> {
    if (this.closed) throw new ConflictError("The server is shutting down");
    this.starting.add(streamId);
    const claim = await claimSession(this.deps.db, this.deps.clock, {
      streamId,
      sessionId,
      turnId,
      model: model ?? null,
      modelProvider: provider ?? null,
      ownerReplica: this.leases.replicaId,
      leaseUntil: this.leases.newLeaseUntil() ?? undefined,
    }).catch((err) => {
      this.starting.delete(streamId);
      throw err;
    });
    if (!claim.ok) {
      this.starting.delete(streamId);
      throw new ConflictError("session already has an active stream", {
        active_stream_id: claim.conflict,
      });
    }
    if (this.closed) {
      // Shutdown began while the claim was in flight: this run would start after close().
      await this.abandon(sessionId, streamId);
      throw new ConflictError("The server is shutting down");
    }
  }

  /**
   * Undo a claim whose run never started. Best effort: the error that made the caller give up
   * is the one to report, and a claim left behind is closed by recovery (a replica's sweep
   * once its lease expires, or the next start).
   */
  private async abandon(sessionId: string, streamId: string): Promise<void> {
    this.starting.delete(streamId);
    try {
      await abandonClaim(this.deps.db, sessionId, streamId);
    } catch (err) {
      this.deps.log.error("could not undo the claim of a run that never started", {
        stream_id: streamId,
        error: String(err),
      });
    }
  }

  private launch(
    app: EngineHost,
    ids: { streamId: string; sessionId: string; turnId: string },
    mode: RunMode,
    title?: string,
    focus?: string,
  ): void {
    const opts = this.options(app.config);
    const run = new Run({
      db: this.deps.db,
      clock: this.deps.clock,
      log: this.deps.log,
      append: this.append,
      persistIntervalMs: opts.persistIntervalMs,
    }, ids);
    this.runs.set(ids.streamId, run);
    this.starting.delete(ids.streamId);
    // Start on the next macrotask so the HTTP response leaves first.
    run.done = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(loadAgentLoop)
      .then(({ runAgent }) => runAgent(run, { app, opts, mode, title, focus }))
      .catch((err) => this.deps.log.error("run crashed", { error: String(err) }))
      .finally(async () => {
        if (!run.finished && !this.closed) {
          try {
            await run.end("error", [
              { event: "error", data: { message: "The run stopped unexpectedly" } },
              { event: "stream_end", data: { session_id: run.sessionId } },
            ]);
          } catch (err) {
            this.deps.log.error("could not end a run", { error: String(err) });
          }
        }
        if (this.runs.get(ids.streamId) === run) this.runs.delete(ids.streamId);
        // The sessions-list feed (GET /api/sessions/events): the run ended, the row changed.
        await publishSessionsChanged(this.deps.db, "run_end", ids.sessionId);
      })
      .catch((err) => this.deps.log.error("could not close a run", { error: String(err) }));
  }
}
