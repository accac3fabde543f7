// The one embedded SQLite database (node:sqlite, built into Deno): opening it, its pragmas
// and its ordered migrations keyed by PRAGMA user_version. Invariants: WAL journaling,
// foreign keys on, a busy timeout; migrations only ever append; each runs in a transaction
// together with its user_version bump, so a crash mid-migration leaves the old version.
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { join } from "node:path";
import { isolationFor, PgDatabase } from "./postgres/pg_database.ts";
import { migratePostgres } from "./postgres/pg_migrations.ts";
import { databaseEnv } from "../settings/config.ts";

export type { Db, SqlRow, SqlRunResult, SqlStatement, SqlValue } from "./storage_interface.ts";
import type { Db } from "./storage_interface.ts";

/**
 * Ordered schema migrations. Append new entries; never edit a shipped one.
 * SQL for reading and writing these tables lives in the concept files that own them.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: sessions, messages, projects, settings, full-text index, runs and their journal.
  `
  CREATE TABLE projects (
    project_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    color TEXT,
    workspaces TEXT NOT NULL DEFAULT '[]',
    default_workspace TEXT,
    workspace TEXT,
    model TEXT,
    model_provider TEXT,
    reasoning_effort TEXT,
    auto_assign INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
  );

  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT 'Untitled',
    workspace TEXT NOT NULL,
    model TEXT,
    model_provider TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    last_message_at REAL,
    pinned INTEGER NOT NULL DEFAULT 0,
    pinned_at REAL,
    archived INTEGER NOT NULL DEFAULT 0,
    project_id TEXT REFERENCES projects(project_id) ON DELETE SET NULL,
    parent_session_id TEXT,
    message_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    estimated_cost REAL,
    active_stream_id TEXT,
    skip_approvals INTEGER NOT NULL DEFAULT 0,
    extra TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX sessions_by_updated ON sessions(archived, updated_at DESC);
  CREATE INDEX sessions_by_project ON sessions(project_id);

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('system','user','assistant','tool')),
    content TEXT NOT NULL DEFAULT '',
    tool_calls TEXT,
    tool_call_id TEXT,
    name TEXT,
    reasoning TEXT,
    attachments TEXT,
    turn_id TEXT,
    timestamp REAL NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}',
    UNIQUE (session_id, idx)
  );

  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  CREATE TABLE workspaces (
    path TEXT PRIMARY KEY,
    name TEXT,
    added_at REAL NOT NULL,
    last_used_at REAL
  );

  -- Full-text search over session titles and message text, kept in sync by triggers.
  CREATE VIRTUAL TABLE title_fts USING fts5(title, tokenize = 'unicode61');
  CREATE VIRTUAL TABLE message_fts USING fts5(content, session_id UNINDEXED, tokenize = 'unicode61');

  CREATE TRIGGER sessions_fts_ai AFTER INSERT ON sessions BEGIN
    INSERT INTO title_fts(rowid, title) VALUES (new.rowid, new.title);
  END;
  CREATE TRIGGER sessions_fts_au AFTER UPDATE OF title ON sessions BEGIN
    DELETE FROM title_fts WHERE rowid = old.rowid;
    INSERT INTO title_fts(rowid, title) VALUES (new.rowid, new.title);
  END;
  CREATE TRIGGER sessions_fts_ad AFTER DELETE ON sessions BEGIN
    DELETE FROM title_fts WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
    INSERT INTO message_fts(rowid, content, session_id) VALUES (new.id, new.content, new.session_id);
  END;
  CREATE TRIGGER messages_fts_au AFTER UPDATE OF content ON messages BEGIN
    DELETE FROM message_fts WHERE rowid = old.id;
    INSERT INTO message_fts(rowid, content, session_id) VALUES (new.id, new.content, new.session_id);
  END;
  CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
    DELETE FROM message_fts WHERE rowid = old.id;
  END;

  -- One row per agent run; the journal holds every event the run emitted, in order.
  CREATE TABLE streams (
    stream_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running','done','cancelled','error','interrupted')),
    model TEXT,
    model_provider TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    last_seq INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX streams_by_session ON streams(session_id);

  CREATE TABLE stream_events (
    stream_id TEXT NOT NULL REFERENCES streams(stream_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (stream_id, seq)
  ) WITHOUT ROWID;

  -- Tool calls, one row per call; status mirrors the ChatEvent tool-call union.
  CREATE TABLE tool_calls (
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    turn_id TEXT,
    name TEXT NOT NULL,
    args TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('pending','awaiting_approval','running','completed','error','denied')),
    result TEXT,
    started_at REAL NOT NULL,
    duration REAL,
    PRIMARY KEY (session_id, tool_call_id)
  );

  -- Pending approvals are a per-session FIFO (ordered by seq); answered rows are kept briefly.
  CREATE TABLE approvals (
    approval_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    stream_id TEXT,
    command TEXT NOT NULL,
    description TEXT NOT NULL,
    pattern_key TEXT NOT NULL,
    pattern_keys TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL CHECK (status IN ('pending','approved','denied','expired')),
    choice TEXT,
    message TEXT,
    created_at REAL NOT NULL,
    resolved_at REAL
  );
  CREATE INDEX approvals_pending ON approvals(session_id, status, seq);

  CREATE TABLE session_approvals (
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    pattern_key TEXT NOT NULL,
    PRIMARY KEY (session_id, pattern_key)
  ) WITHOUT ROWID;

  -- Per-turn usage for insights: tokens, cost, speed, tools.
  CREATE TABLE usage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    stream_id TEXT,
    model TEXT,
    model_provider TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    cost REAL,
    ttft_ms REAL,
    tokens_per_s REAL,
    tool_count INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
  );
  CREATE INDEX usage_by_time ON usage(created_at);
  `,
  // 2: login sessions (lib/security/auth.ts): a signed cookie is valid only while its nonce is listed.
  `
  CREATE TABLE auth_sessions (
    nonce TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
  ) WITHOUT ROWID;
  `,
  // 3: context compression (lib/engine/compression.ts): what the model sees in place of the
  // messages before upto_idx. The stored transcript itself is never rewritten. boundary_ts is
  // the timestamp of message upto_idx-1: if undo/clear changed it, the summary is stale.
  `
  CREATE TABLE compressions (
    session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    upto_idx INTEGER NOT NULL,
    boundary_ts REAL NOT NULL,
    summary TEXT NOT NULL,
    created_at REAL NOT NULL
  );
  `,
  // 4: insights count messages per day/hour over a window: index their timestamps.
  `
  CREATE INDEX messages_by_time ON messages(timestamp);
  `,
  // 5: the per-session switch that lets the sandboxed shell reach the network (/network).
  `
  ALTER TABLE sessions ADD COLUMN allow_network INTEGER NOT NULL DEFAULT 0;
  `,
  // 6: scheduled tasks (lib/tasks/): jobs, and one row per slot that came due. UNIQUE(job_id,
  // slot) is what makes a slot fire at most once, across restarts and (later) replicas.
  `
  CREATE TABLE cron_jobs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    prompt TEXT NOT NULL,
    schedule TEXT NOT NULL,
    schedule_kind TEXT NOT NULL CHECK (schedule_kind IN ('cron', 'interval', 'once')),
    schedule_expr TEXT NOT NULL,
    timezone TEXT NOT NULL,
    workspace TEXT,
    model TEXT,
    profile TEXT,
    deliver TEXT NOT NULL DEFAULT 'new_session' CHECK (deliver IN ('new_session', 'session')),
    target_session_id TEXT,
    deny_approvals INTEGER NOT NULL DEFAULT 1,
    enabled INTEGER NOT NULL DEFAULT 1,
    anchor REAL NOT NULL,
    last_slot REAL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
  );
  CREATE TABLE cron_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
    slot REAL NOT NULL,
    trigger TEXT NOT NULL DEFAULT 'schedule' CHECK (trigger IN ('schedule', 'catch_up', 'manual')),
    status TEXT NOT NULL CHECK (status IN
      ('running', 'completed', 'error', 'skipped', 'missed', 'interrupted')),
    reason TEXT,
    session_id TEXT,
    stream_id TEXT,
    started_at REAL NOT NULL,
    finished_at REAL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost REAL,
    output_head TEXT,
    UNIQUE (job_id, slot)
  );
  CREATE INDEX cron_runs_by_job ON cron_runs(job_id, started_at DESC);
  ALTER TABLE sessions ADD COLUMN cron_job_id TEXT;
  `,
  // 7: the agent's configuration (lib/agent/): a session's personality, and saved prompts.
  `
  ALTER TABLE sessions ADD COLUMN personality TEXT;
  CREATE TABLE saved_prompts (
    name TEXT PRIMARY KEY,
    content TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
  );
  `,
  // 8: standing goals (lib/goals/): one per session, surviving restarts.
  `
  CREATE TABLE goals (
    session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    goal TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'done', 'blocked')),
    turns_used INTEGER NOT NULL DEFAULT 0,
    max_turns INTEGER NOT NULL,
    tokens_used INTEGER NOT NULL DEFAULT 0,
    max_tokens INTEGER NOT NULL,
    no_progress INTEGER NOT NULL DEFAULT 0,
    max_no_progress INTEGER NOT NULL,
    last_verdict TEXT,
    last_reason TEXT,
    paused_reason TEXT,
    subgoals TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
  );
  `,
  // 9: profiles (lib/agent/profiles.ts): the profile a session was created under (NULL is
  // default), and small console state such as the active profile.
  `
  ALTER TABLE sessions ADD COLUMN profile TEXT;
  CREATE INDEX sessions_by_profile ON sessions(profile);
  CREATE TABLE app_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  // 10: delegated sub-tasks (lib/engine/child_run.ts): a child session records the parent's
  // `delegate` tool call that spawned it; such sessions are hidden from the session list and
  // go with their parent (a fork's parent link stays a plain reference).
  `
  ALTER TABLE sessions ADD COLUMN delegate_call_id TEXT;
  CREATE INDEX sessions_by_parent ON sessions(parent_session_id) WHERE delegate_call_id IS NOT NULL;
  CREATE TRIGGER delegate_children_ad AFTER DELETE ON sessions BEGIN
    DELETE FROM sessions WHERE parent_session_id = OLD.session_id AND delegate_call_id IS NOT NULL;
  END;
  `,
  // 11: the sidebar pages the visible sessions by (pinned, updated_at, session_id) keyset
  // (lib/sessions/session_page.ts). The index is partial on the visibility rule (same text as
  // VISIBLE_SQL: not an untouched scratch session, not a delegated child) so a page reads the
  // index alone; session_counts keeps the number of visible sessions per (archived, project) up
  // to date from triggers, so the total a page carries is a lookup, not a count over every row.
  `
  CREATE INDEX sessions_page ON sessions(archived, pinned DESC, updated_at DESC, session_id DESC)
    WHERE (NOT (message_count = 0 AND title = 'Untitled' AND active_stream_id IS NULL) AND delegate_call_id IS NULL);
  CREATE TABLE session_counts (
    archived INTEGER NOT NULL,
    project_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (archived, project_id)
  ) WITHOUT ROWID;
  INSERT INTO session_counts
    SELECT archived, coalesce(project_id, ''), count(*) FROM sessions
    WHERE (NOT (message_count = 0 AND title = 'Untitled' AND active_stream_id IS NULL) AND delegate_call_id IS NULL)
    GROUP BY 1, 2;
  CREATE TRIGGER session_counts_ai AFTER INSERT ON sessions
  WHEN (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL) BEGIN
    INSERT INTO session_counts VALUES (NEW.archived, coalesce(NEW.project_id, ''), 1)
      ON CONFLICT (archived, project_id) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER session_counts_ad AFTER DELETE ON sessions
  WHEN (NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL) BEGIN
    UPDATE session_counts SET n = n - 1
    WHERE archived = OLD.archived AND project_id = coalesce(OLD.project_id, '');
  END;
  CREATE TRIGGER session_counts_au
  AFTER UPDATE OF archived, project_id, message_count, title, active_stream_id, delegate_call_id
  ON sessions
  WHEN (NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL) IS NOT (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL)
    OR ((NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL) AND (OLD.archived IS NOT NEW.archived OR OLD.project_id IS NOT NEW.project_id))
  BEGIN
    UPDATE session_counts SET n = n - 1
    WHERE (NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL)
      AND archived = OLD.archived AND project_id = coalesce(OLD.project_id, '');
    INSERT INTO session_counts
      SELECT NEW.archived, coalesce(NEW.project_id, ''), 1 WHERE (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL)
      ON CONFLICT (archived, project_id) DO UPDATE SET n = n + 1;
  END;
  `,
  // 12: sign-in by passkey (lib/security/passkeys.ts) and the single-use, expiring challenges of
  // passkey and OpenID Connect ceremonies (lib/security/auth_challenges.ts).
  `
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    public_key BLOB NOT NULL,
    counter INTEGER NOT NULL DEFAULT 0,
    transports TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL,
    last_used_at REAL
  );
  CREATE TABLE auth_challenges (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    expires_at REAL NOT NULL
  );
  `,
  // 13: read-only shared snapshots of a conversation (lib/sharing/shares.ts): the token is the
  // capability, the snapshot is frozen at share time; deleting the session deletes its shares.
  `
  CREATE TABLE shares (
    token TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    include_tools INTEGER NOT NULL DEFAULT 0,
    include_files INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    expires_at REAL,
    revoked_at REAL
  );
  CREATE INDEX shares_by_session ON shares(session_id);
  `,
  // 14: who named a session (lib/engine/titles.ts: NULL = derived from the first message,
  // 'model' = generated, 'user' = set by the person and never overwritten) and the session's
  // own reasoning effort (lib/sessions/session_reasoning.ts; NULL = the config's), and the
  // command a person edited before allowing it (lib/approvals/approval_edit.ts), and the file
  // diff of a write_file/patch call (lib/tools/file_diff.ts, JSON) for the diff view on reload,
  // and the last request's input tokens (routes/api/session/context.ts: the context ring).
  `
  ALTER TABLE sessions ADD COLUMN title_source TEXT;
  ALTER TABLE sessions ADD COLUMN reasoning_effort TEXT;
  ALTER TABLE approvals ADD COLUMN edited_command TEXT;
  ALTER TABLE tool_calls ADD COLUMN diff TEXT;
  ALTER TABLE sessions ADD COLUMN last_input_tokens INTEGER;
  `,
  // 15: answer variants (lib/engine/variants.ts): each regenerated answer of a session's last
  // turn; the variant shown in the transcript has messages NULL (its rows live in messages and
  // tool_calls), the others hold their messages and tool call records as JSON.
  `
  CREATE TABLE message_variants (
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    messages TEXT,
    tool_calls TEXT,
    created_at REAL NOT NULL,
    PRIMARY KEY (session_id, turn_id, n)
  );
  `,
  // 16: a counter every change to the sessions table bumps (triggers), so the serialized session
  // list (lib/sessions/session_list_cache.ts) is reused until something it shows changed.
  `
  CREATE TABLE sessions_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO sessions_generation VALUES (1, 0);
  CREATE TRIGGER sessions_generation_ai AFTER INSERT ON sessions BEGIN
    UPDATE sessions_generation SET n = n + 1 WHERE id = 1;
  END;
  CREATE TRIGGER sessions_generation_au AFTER UPDATE ON sessions BEGIN
    UPDATE sessions_generation SET n = n + 1 WHERE id = 1;
  END;
  CREATE TRIGGER sessions_generation_ad AFTER DELETE ON sessions BEGIN
    UPDATE sessions_generation SET n = n + 1 WHERE id = 1;
  END;
  `,
  // 17: replicas (lib/replicas/): which process owns a running stream and until when its lease
  // holds (renewed every few seconds; an expired one is recovered by another process), and the
  // commands (cancel, steer, answers) waiting for the owning process.
  `
  ALTER TABLE streams ADD COLUMN owner_replica TEXT;
  ALTER TABLE streams ADD COLUMN lease_until REAL;
  CREATE TABLE run_commands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    replica_id TEXT NOT NULL,
    stream_id TEXT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL
  );
  CREATE INDEX run_commands_by_replica ON run_commands(replica_id, id);
  -- Rate limit hits replicas count together (lib/security/shared_rate_limit.ts).
  CREATE TABLE rate_hits (limiter TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL);
  CREATE INDEX rate_hits_by_key ON rate_hits(limiter, key, at);
  `,
];

/** Open (creating if needed) the database file in `stateDir` and bring it up to date. */
export function openDatabase(stateDir: string): Db {
  Deno.mkdirSync(stateDir, { recursive: true });
  return openDatabaseAt(join(stateDir, "hermes.db"));
}

/**
 * Open a database at an explicit path (":memory:" works too) and migrate it. With
 * HERMES_DATABASE_URL=postgres://… set, PostgreSQL holds the tables instead (the path then only
 * picks a schema when HERMES_DATABASE_ISOLATE=1, see lib/storage/postgres/pg_database.ts).
 */
export function openDatabaseAt(path: string): Db {
  const { url, isolate, template } = databaseEnv();
  if (url) {
    let db: PgDatabase;
    try {
      const where = isolationFor(url, path, isolate, template);
      db = new PgDatabase(where.url, where.opts);
    } catch (err) {
      throw new Error(
        `Could not open the PostgreSQL database at ${redactUrl(url)}: ${(err as Error).message}`,
      );
    }
    try {
      migratePostgres(db);
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  }
  const db = new DatabaseSync(path);
  cacheStatements(db);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // After a checkpoint the WAL file is cut back to this size instead of keeping its peak (a bulk
  // import once grew it for good).
  db.exec("PRAGMA journal_size_limit = 16777216");
  const sqlite = Object.assign(db, { backend: "sqlite" as const }) as unknown as Db;
  migrate(sqlite);
  return sqlite;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "HERMES_DATABASE_URL";
  }
}

/** Prepared statements kept per database (most recently used first out of the LRU's tail). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Make `db.prepare(sql)` reuse one compiled statement per SQL text (a bounded LRU). The code
 * prepares at every call; each fresh statement holds native memory that V8 cannot see, so
 * under load thousands of dead ones waited for a GC that had no reason to come (+100 MB at
 * 10,000 imports). Statements are synchronous, so sharing one between callers is safe; the
 * one per-statement mode we use (return arrays) is reset on every hand-out.
 */
function cacheStatements(db: DatabaseSync): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, StatementSync>();
  db.prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
      (stmt as { setReturnArrays?: (on: boolean) => void }).setReturnArrays?.(false);
    } else {
      stmt = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, stmt);
    return stmt;
  };
}

function migrate(db: Db): void {
  const { user_version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
  for (let v = user_version; v < MIGRATIONS.length; v++) {
    transaction(db, () => {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
}

/**
 * Run `fn` in one transaction: all its writes land together or not at all.
 * Nested calls join the outer transaction (SAVEPOINTs keep inner failures local).
 */
export function transaction<T>(db: Db, fn: () => T): T {
  const name = `sp_${++savepointCounter}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = fn();
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (err) {
    db.exec(`ROLLBACK TO ${name}`);
    db.exec(`RELEASE ${name}`);
    throw err;
  }
}
let savepointCounter = 0;

/** Parse a JSON column, tolerating NULL. */
export function parseJsonColumn<T>(value: unknown, fallback: T): T {
  if (typeof value !== "string" || value === "") return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
