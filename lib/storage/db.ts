// The one embedded SQLite database (node:sqlite, built into Deno): opening it, its pragmas
// and its ordered migrations keyed by PRAGMA user_version. Invariants: WAL journaling,
// foreign keys on, a busy timeout; migrations only ever append; each runs in a transaction
// together with its user_version bump, so a crash mid-migration leaves the old version.
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";

export type Db = DatabaseSync;

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
];

/** Open (creating if needed) the database file in `stateDir` and bring it up to date. */
export function openDatabase(stateDir: string): Db {
  Deno.mkdirSync(stateDir, { recursive: true });
  return openDatabaseAt(join(stateDir, "hermes.db"));
}

/** Open a database at an explicit path (":memory:" works too) and migrate it. */
export function openDatabaseAt(path: string): Db {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  migrate(db);
  return db;
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
