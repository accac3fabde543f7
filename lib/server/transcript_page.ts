// What the conversation view paints first, on the server: the latest whole turns of a session
// with their prose rendered to final HTML (no JavaScript needed to read them), the run in
// progress folded from its journal (so a reload mid-answer shows the partial answer and
// resumes after it), the outcome of turns whose run failed, and what the session waits for.
// Invariants: a message of the running turn is never also in the settled history; the page
// starts at a user message unless it reaches the first message.
import { withLocale } from "../i18n/t.ts";
import { type Locale, SOURCE_LOCALE } from "../i18n/locales.ts";
import type { AppContext } from "./app_context.ts";
import type { ApprovalEventData, SequencedEvent } from "../shared/chat_events.ts";
import { parseJsonColumn, sql } from "../storage/db.ts";
import { getStream, readEvents } from "../engine/journal.ts";
import { listMessages, type StoredMessage } from "../sessions/messages.ts";
import { pendingApprovals } from "../approvals/approvals.ts";
import { pendingClarify } from "../approvals/clarify.ts";
import { preloadRenderers, renderMarkdown } from "../markdown/render.ts";
import type { SessionRow } from "../sessions/sessions.ts";
import { checkpointStore } from "../checkpoints/checkpoint_store.ts";
import { turnsWithChanges } from "../checkpoints/rollback.ts";
import { ranFileTool } from "../shared/turn_rollback.ts";
import {
  alignedPage,
  applyEvent,
  type ClarifyRequest,
  createLiveRun,
  foldMessages,
  type LiveRun,
  messageText,
  noticeFromEvent,
  type ToolCallRecord,
  type TurnModel,
} from "../shared/transcript_model.ts";

/** The pending approval as the card needs it (an `approval` event's data). */
export type PendingApproval = ApprovalEventData;

export interface TranscriptPage {
  sessionId: string;
  /** Settled turns, oldest first, each segment with its final `html`. */
  turns: TurnModel[];
  /** Load older messages before this idx; null when the first message is shown. */
  olderBefore: number | null;
  /** The run in progress (segments with `html` of the text so far), or null. */
  live: LiveRun | null;
  approval: { pending: PendingApproval | null; pending_count: number };
  clarify: ClarifyRequest | null;
  skipApprovals: boolean;
  /** Some prose on the page contains math (the page links KaTeX's stylesheet). */
  math: boolean;
}

/** Rows of the first paint (the budget: a long session opens on its last 30 rows). */
export const FIRST_PAGE_ROWS = 30;

/** `a, b, …` for an IN list of a first page's ids (a few dozen), one parameter each. */
function inList(values: Iterable<string>) {
  return sql.join([...values].map((v) => sql`${v}`));
}

async function toolRecords(
  app: AppContext,
  sessionId: string,
  msgs: StoredMessage[],
): Promise<ToolCallRecord[]> {
  const ids = msgs.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
  if (ids.length === 0) return [];
  return await app.db.all<ToolCallRecord>(
    sql`SELECT tool_call_id, status, result, duration FROM tool_calls
        WHERE session_id = ${sessionId} AND tool_call_id IN (${inList(ids)})`,
  );
}

type OutcomeRow = { turn_id: string; event: string; data: string };

/** The journal rows addOutcomes() folds: each settled turn's latest run's lasting events. */
async function loadOutcomes(
  app: AppContext,
  sessionId: string,
  turns: TurnModel[],
): Promise<OutcomeRow[]> {
  const turnIds = turns.filter((t) => t.turnId).map((t) => t.turnId!);
  if (turnIds.length === 0) return [];
  return await app.db.all<OutcomeRow>(
    sql`SELECT s.turn_id, e.event, e.data FROM stream_events e
        JOIN streams s ON s.stream_id = e.stream_id
        WHERE s.session_id = ${sessionId} AND s.status != 'running'
          AND s.turn_id IN (${inList(new Set(turnIds))})
          AND s.started_at = (SELECT max(started_at) FROM streams x
                              WHERE x.session_id = s.session_id AND x.turn_id = s.turn_id)
          AND e.event IN ('apperror', 'error', 'cancel', 'warning', 'todo_state')
        ORDER BY e.seq`,
  );
}

/**
 * Notices (failures, stops, lasting warnings) and the last plan of each turn's latest run,
 * from the journal (runs older than the journal's retention keep none). Synchronous: it runs
 * inside withLocale(), which words the notices.
 */
function addOutcomes(turns: TurnModel[], rows: OutcomeRow[]): void {
  const byTurn = new Map(turns.filter((t) => t.turnId).map((t) => [t.turnId!, t]));
  for (const r of rows) {
    const turn = byTurn.get(r.turn_id)!;
    const e = { event: r.event, data: parseJsonColumn(r.data, {}) } as SequencedEvent;
    if (e.event === "todo_state") {
      turn.todos = e.data.todos;
      continue;
    }
    const n = noticeFromEvent(e);
    if (n) turn.notices.push(n);
  }
}

/** Which turns changed files, from their checkpoints (read only when a turn may have). */
async function addChangedFiles(app: AppContext, sessionId: string, turns: TurnModel[]) {
  const candidates = turns.filter((t) => t.turnId && ranFileTool(t.tools));
  if (!candidates.length) return;
  const changed = await turnsWithChanges(checkpointStore(app.config.stateDir), sessionId);
  for (const t of candidates) t.changedFiles = changed.has(t.turnId!);
}

function renderSegments(turn: TurnModel): boolean {
  let math = false;
  for (const s of turn.segments) {
    s.html = renderMarkdown(s.text);
    if (!math && s.html.includes('class="katex')) math = true;
  }
  return math;
}

/** What liveRun() folds: the running stream, its turn's user message and its journal. */
interface LiveRunRows {
  streamId: string;
  turnId: string;
  userMsg: { idx: number; content: string; extra: string } | undefined;
  events: SequencedEvent[];
}

/** The rows of the run in progress of `session`; null when there is none. */
async function loadLiveRun(app: AppContext, session: SessionRow): Promise<LiveRunRows | null> {
  const streamId = session.active_stream_id;
  if (!streamId) return null;
  const row = await getStream(app.db, streamId);
  if (!row) return null;
  const userMsg = await app.db.get<{ idx: number; content: string; extra: string }>(
    sql`SELECT idx, content, extra FROM messages
        WHERE session_id = ${session.session_id} AND turn_id = ${row.turn_id} AND role = 'user'
        ORDER BY idx LIMIT 1`,
  );
  const events = await readEvents(app.db, streamId, 0);
  return { streamId, turnId: row.turn_id, userMsg, events };
}

/**
 * The run in progress, folded from its journal rows (synchronous: it runs inside withLocale(),
 * which words its notices); null when there is none.
 */
function liveRun(session: SessionRow, rows: LiveRunRows | null): LiveRun | null {
  if (!rows) return null;
  const { streamId, userMsg } = rows;
  const extra = parseJsonColumn<Record<string, unknown>>(userMsg?.extra, {});
  const run = createLiveRun({
    sessionId: session.session_id,
    streamId,
    turnId: rows.turnId,
    user: userMsg
      ? {
        idx: userMsg.idx,
        text: messageText(extra._content_parts ?? userMsg.content),
        attachments: [],
      }
      : null,
  });
  for (const e of rows.events) applyEvent(run, e);
  return run;
}

/** Build the first paint of `session`'s conversation (`rows`: how many latest rows). */
export async function loadTranscriptPage(
  app: AppContext,
  session: SessionRow,
  rows = FIRST_PAGE_ROWS,
  locale: Locale = SOURCE_LOCALE,
): Promise<TranscriptPage> {
  await preloadRenderers(); // memoized: final math and code from the first render on
  const sid = session.session_id;
  // Notices (errors, "Stopped") are worded while the events are folded: in the page's locale.
  const liveRows = await loadLiveRun(app, session);
  const live = withLocale(locale, () => liveRun(session, liveRows));
  const hidden = live?.turn.turnId ?? null;
  const page = await alignedPage(
    (before, limit) => listMessages(app.db, sid, { before, limit }),
    undefined,
    rows,
  );
  const offset = page.offset;
  // The running turn's rows are shown by the live run: leave them out (they are the last).
  const messages = hidden ? page.messages.filter((m) => m.turn_id !== hidden) : page.messages;
  const turns = foldMessages(messages, await toolRecords(app, sid, messages));
  const outcomes = await loadOutcomes(app, sid, turns);
  withLocale(locale, () => addOutcomes(turns, outcomes));
  await addChangedFiles(app, sid, turns);
  let math = false;
  for (const t of turns) math = renderSegments(t) || math;
  if (live) math = renderSegments(live.turn) || math;
  const snapshot = await pendingApprovals(app.db, sid);
  const p = snapshot.pending;
  return {
    sessionId: sid,
    turns,
    olderBefore: offset > 0 ? offset : null,
    live,
    approval: {
      pending: p
        ? {
          approval_id: p.approval_id,
          command: p.command,
          description: p.description,
          pattern_key: p.pattern_key,
          pattern_keys: p.pattern_keys,
          pending_count: snapshot.pending_count,
        }
        : null,
      pending_count: snapshot.pending_count,
    },
    clarify: pendingClarify(app.tools.clarify, sid),
    skipApprovals: session.skip_approvals,
    math,
  };
}
