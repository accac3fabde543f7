// The one schema history, for both backends: entry k brings a database from version k-1 to k,
// on SQLite (PRAGMA user_version) and on PostgreSQL (hermes_schema_version) alike, so a version
// number means the same schema wherever it is read. Invariants: entries only ever append and a
// shipped one is never edited; each holds the step in each dialect where the dialects differ
// (types, triggers, full-text search), or one text for both; the step and its version bump land
// in one transaction. Run by lib/storage/db.ts (SQLite) and lib/storage/postgres/pg_migrations.ts.
//
// How the PostgreSQL steps map SQLite's types, so both backends read alike:
// - TEXT is `text COLLATE "C"`: ordering and comparison byte-wise, as SQLite's BINARY.
// - INTEGER is bigint, REAL double precision, BLOB bytea; AUTOINCREMENT keys are identities.
// - A table SQLite gives a hidden rowid carries a real `rowid` identity column (last, so a
//   positional INSERT of the SQLite columns still lines up), because code orders by it; name
//   the columns you select. WITHOUT ROWID tables have none.
// - No FTS5 tables: titles and message text have expression GIN indexes instead, which
//   lib/sessions/session_search.ts queries with the very same expression. The expression first
//   blanks ASCII punctuation (a "C" collated regex class is ASCII only), so the parser splits
//   `lib/db.ts` or `example.com` into words as FTS5's unicode61 does. It reads the first 200,000
//   characters (a tsvector holds at most 1 MB). Only user and assistant messages, the ones
//   search reads, are indexed; tool output is the bulk of the table.
// - Row triggers are plpgsql functions; the sessions_generation bump is one per changed row.
// A later ALTER TABLE … ADD COLUMN lands after `rowid`: name the columns in such inserts.

/** One step of the schema: its SQLite text and its PostgreSQL text. */
export interface Migration {
  readonly sqlite: string;
  /**
   * null: nothing to do on PostgreSQL at this step, because PostgreSQL support began at step 16
   * and its text for step 16 creates the whole schema as of that step.
   */
  readonly postgres: string | null;
}

/** The history. Append new entries; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  // 1: sessions, messages, projects, settings, full-text index, runs and their journal.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 2: login sessions (lib/security/auth.ts): a signed cookie is valid only while its nonce is listed.
  {
    sqlite: `
  CREATE TABLE auth_sessions (
    nonce TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
  ) WITHOUT ROWID;
  `,
    postgres: null, // in step 16
  },
  // 3: context compression (lib/engine/compression.ts): what the model sees in place of the
  // messages before upto_idx. The stored transcript itself is never rewritten. boundary_ts is
  // the timestamp of message upto_idx-1: if undo/clear changed it, the summary is stale.
  {
    sqlite: `
  CREATE TABLE compressions (
    session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    upto_idx INTEGER NOT NULL,
    boundary_ts REAL NOT NULL,
    summary TEXT NOT NULL,
    created_at REAL NOT NULL
  );
  `,
    postgres: null, // in step 16
  },
  // 4: insights count messages per day/hour over a window: index their timestamps.
  {
    sqlite: `
  CREATE INDEX messages_by_time ON messages(timestamp);
  `,
    postgres: null, // in step 16
  },
  // 5: the per-session switch that lets the sandboxed shell reach the network (/network).
  {
    sqlite: `
  ALTER TABLE sessions ADD COLUMN allow_network INTEGER NOT NULL DEFAULT 0;
  `,
    postgres: null, // in step 16
  },
  // 6: scheduled tasks (lib/tasks/): jobs, and one row per slot that came due. UNIQUE(job_id,
  // slot) is what makes a slot fire at most once, across restarts and (later) replicas.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 7: the agent's configuration (lib/agent/): a session's personality, and saved prompts.
  {
    sqlite: `
  ALTER TABLE sessions ADD COLUMN personality TEXT;
  CREATE TABLE saved_prompts (
    name TEXT PRIMARY KEY,
    content TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
  );
  `,
    postgres: null, // in step 16
  },
  // 8: standing goals (lib/goals/): one per session, surviving restarts.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 9: profiles (lib/agent/profiles.ts): the profile a session was created under (NULL is
  // default), and small console state such as the active profile.
  {
    sqlite: `
  ALTER TABLE sessions ADD COLUMN profile TEXT;
  CREATE INDEX sessions_by_profile ON sessions(profile);
  CREATE TABLE app_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
    postgres: null, // in step 16
  },
  // 10: delegated sub-tasks (lib/engine/child_run.ts): a child session records the parent's
  // `delegate` tool call that spawned it; such sessions are hidden from the session list and
  // go with their parent (a fork's parent link stays a plain reference).
  {
    sqlite: `
  ALTER TABLE sessions ADD COLUMN delegate_call_id TEXT;
  CREATE INDEX sessions_by_parent ON sessions(parent_session_id) WHERE delegate_call_id IS NOT NULL;
  CREATE TRIGGER delegate_children_ad AFTER DELETE ON sessions BEGIN
    DELETE FROM sessions WHERE parent_session_id = OLD.session_id AND delegate_call_id IS NOT NULL;
  END;
  `,
    postgres: null, // in step 16
  },
  // 11: the sidebar pages the visible sessions by (pinned, updated_at, session_id) keyset
  // (lib/sessions/session_page.ts). The index is partial on the visibility rule (same text as
  // VISIBLE_SQL: not an untouched scratch session, not a delegated child) so a page reads the
  // index alone; session_counts keeps the number of visible sessions per (archived, project) up
  // to date from triggers, so the total a page carries is a lookup, not a count over every row.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 12: sign-in by passkey (lib/security/passkeys.ts) and the single-use, expiring challenges of
  // passkey and OpenID Connect ceremonies (lib/security/auth_challenges.ts).
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 13: read-only shared snapshots of a conversation (lib/sharing/shares.ts): the token is the
  // capability, the snapshot is frozen at share time; deleting the session deletes its shares.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 14: who named a session (lib/engine/titles.ts: NULL = derived from the first message,
  // 'model' = generated, 'user' = set by the person and never overwritten) and the session's
  // own reasoning effort (lib/sessions/session_reasoning.ts; NULL = the config's), and the
  // command a person edited before allowing it (lib/approvals/approval_edit.ts), and the file
  // diff of a write_file/patch call (lib/tools/file_diff.ts, JSON) for the diff view on reload,
  // and the last request's input tokens (routes/api/session/context.ts: the context ring).
  {
    sqlite: `
  ALTER TABLE sessions ADD COLUMN title_source TEXT;
  ALTER TABLE sessions ADD COLUMN reasoning_effort TEXT;
  ALTER TABLE approvals ADD COLUMN edited_command TEXT;
  ALTER TABLE tool_calls ADD COLUMN diff TEXT;
  ALTER TABLE sessions ADD COLUMN last_input_tokens INTEGER;
  `,
    postgres: null, // in step 16
  },
  // 15: answer variants (lib/engine/variants.ts): each regenerated answer of a session's last
  // turn; the variant shown in the transcript has messages NULL (its rows live in messages and
  // tool_calls), the others hold their messages and tool call records as JSON.
  {
    sqlite: `
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
    postgres: null, // in step 16
  },
  // 16: a counter every change to the sessions table bumps (triggers), so the serialized session
  // list (lib/sessions/session_list_cache.ts) is reused until something it shows changed.
  {
    sqlite: `
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
    // PostgreSQL: the whole schema as of this step (steps 1–16 in one).
    postgres: `
  CREATE TABLE projects (
    project_id text COLLATE "C" PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    color text COLLATE "C",
    workspaces text COLLATE "C" NOT NULL DEFAULT '[]',
    default_workspace text COLLATE "C",
    workspace text COLLATE "C",
    model text COLLATE "C",
    model_provider text COLLATE "C",
    reasoning_effort text COLLATE "C",
    auto_assign bigint NOT NULL DEFAULT 0,
    created_at double precision NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE sessions (
    session_id text COLLATE "C" PRIMARY KEY,
    title text COLLATE "C" NOT NULL DEFAULT 'Untitled',
    workspace text COLLATE "C" NOT NULL,
    model text COLLATE "C",
    model_provider text COLLATE "C",
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    last_message_at double precision,
    pinned bigint NOT NULL DEFAULT 0,
    pinned_at double precision,
    archived bigint NOT NULL DEFAULT 0,
    project_id text COLLATE "C" REFERENCES projects(project_id) ON DELETE SET NULL,
    parent_session_id text COLLATE "C",
    message_count bigint NOT NULL DEFAULT 0,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    estimated_cost double precision,
    active_stream_id text COLLATE "C",
    skip_approvals bigint NOT NULL DEFAULT 0,
    extra text COLLATE "C" NOT NULL DEFAULT '{}',
    allow_network bigint NOT NULL DEFAULT 0,
    cron_job_id text COLLATE "C",
    personality text COLLATE "C",
    profile text COLLATE "C",
    delegate_call_id text COLLATE "C",
    title_source text COLLATE "C",
    reasoning_effort text COLLATE "C",
    last_input_tokens bigint,
    rowid bigint generated always as identity
  );
  CREATE INDEX sessions_by_updated ON sessions(archived, updated_at DESC);
  CREATE INDEX sessions_by_project ON sessions(project_id);
  CREATE INDEX sessions_by_profile ON sessions(profile);
  CREATE INDEX sessions_by_parent ON sessions(parent_session_id) WHERE delegate_call_id IS NOT NULL;
  CREATE INDEX sessions_page ON sessions(archived, pinned DESC, updated_at DESC, session_id DESC)
    WHERE (NOT (message_count = 0 AND title = 'Untitled' AND active_stream_id IS NULL) AND delegate_call_id IS NULL);
  CREATE INDEX sessions_title_search ON sessions
    USING gin (to_tsvector('simple', regexp_replace(left(title, 200000), '[[:punct:]]', ' ', 'g')));

  CREATE TABLE messages (
    id bigint generated by default as identity PRIMARY KEY,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    idx bigint NOT NULL,
    role text COLLATE "C" NOT NULL CHECK (role IN ('system','user','assistant','tool')),
    content text COLLATE "C" NOT NULL DEFAULT '',
    tool_calls text COLLATE "C",
    tool_call_id text COLLATE "C",
    name text COLLATE "C",
    reasoning text COLLATE "C",
    attachments text COLLATE "C",
    turn_id text COLLATE "C",
    timestamp double precision NOT NULL,
    extra text COLLATE "C" NOT NULL DEFAULT '{}',
    UNIQUE (session_id, idx)
  );
  CREATE INDEX messages_by_time ON messages(timestamp);
  CREATE INDEX messages_content_search ON messages
    USING gin (to_tsvector('simple', regexp_replace(left(content, 200000), '[[:punct:]]', ' ', 'g')))
    WHERE role IN ('user', 'assistant');

  CREATE TABLE settings (
    key text COLLATE "C" PRIMARY KEY,
    value text COLLATE "C" NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE workspaces (
    path text COLLATE "C" PRIMARY KEY,
    name text COLLATE "C",
    added_at double precision NOT NULL,
    last_used_at double precision,
    rowid bigint generated always as identity
  );

  CREATE TABLE streams (
    stream_id text COLLATE "C" PRIMARY KEY,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn_id text COLLATE "C" NOT NULL,
    status text COLLATE "C" NOT NULL CHECK (status IN ('running','done','cancelled','error','interrupted')),
    model text COLLATE "C",
    model_provider text COLLATE "C",
    started_at double precision NOT NULL,
    ended_at double precision,
    last_seq bigint NOT NULL DEFAULT 0,
    rowid bigint generated always as identity
  );
  CREATE INDEX streams_by_session ON streams(session_id);

  CREATE TABLE stream_events (
    stream_id text COLLATE "C" NOT NULL REFERENCES streams(stream_id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    event text COLLATE "C" NOT NULL,
    data text COLLATE "C" NOT NULL,
    created_at double precision NOT NULL,
    PRIMARY KEY (stream_id, seq)
  );

  CREATE TABLE tool_calls (
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    tool_call_id text COLLATE "C" NOT NULL,
    turn_id text COLLATE "C",
    name text COLLATE "C" NOT NULL,
    args text COLLATE "C" NOT NULL DEFAULT '{}',
    status text COLLATE "C" NOT NULL CHECK (status IN ('pending','awaiting_approval','running','completed','error','denied')),
    result text COLLATE "C",
    started_at double precision NOT NULL,
    duration double precision,
    diff text COLLATE "C",
    rowid bigint generated always as identity,
    PRIMARY KEY (session_id, tool_call_id)
  );

  CREATE TABLE approvals (
    approval_id text COLLATE "C" PRIMARY KEY,
    seq bigint NOT NULL,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    stream_id text COLLATE "C",
    command text COLLATE "C" NOT NULL,
    description text COLLATE "C" NOT NULL,
    pattern_key text COLLATE "C" NOT NULL,
    pattern_keys text COLLATE "C" NOT NULL DEFAULT '[]',
    status text COLLATE "C" NOT NULL CHECK (status IN ('pending','approved','denied','expired')),
    choice text COLLATE "C",
    message text COLLATE "C",
    created_at double precision NOT NULL,
    resolved_at double precision,
    edited_command text COLLATE "C",
    rowid bigint generated always as identity
  );
  CREATE INDEX approvals_pending ON approvals(session_id, status, seq);

  CREATE TABLE session_approvals (
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    pattern_key text COLLATE "C" NOT NULL,
    PRIMARY KEY (session_id, pattern_key)
  );

  CREATE TABLE usage (
    id bigint generated by default as identity PRIMARY KEY,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    stream_id text COLLATE "C",
    model text COLLATE "C",
    model_provider text COLLATE "C",
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    cached_tokens bigint NOT NULL DEFAULT 0,
    cost double precision,
    ttft_ms double precision,
    tokens_per_s double precision,
    tool_count bigint NOT NULL DEFAULT 0,
    created_at double precision NOT NULL
  );
  CREATE INDEX usage_by_time ON usage(created_at);

  CREATE TABLE auth_sessions (
    nonce text COLLATE "C" PRIMARY KEY,
    created_at double precision NOT NULL,
    expires_at double precision NOT NULL
  );

  CREATE TABLE compressions (
    session_id text COLLATE "C" PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    upto_idx bigint NOT NULL,
    boundary_ts double precision NOT NULL,
    summary text COLLATE "C" NOT NULL,
    created_at double precision NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE cron_jobs (
    id text COLLATE "C" PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    prompt text COLLATE "C" NOT NULL,
    schedule text COLLATE "C" NOT NULL,
    schedule_kind text COLLATE "C" NOT NULL CHECK (schedule_kind IN ('cron', 'interval', 'once')),
    schedule_expr text COLLATE "C" NOT NULL,
    timezone text COLLATE "C" NOT NULL,
    workspace text COLLATE "C",
    model text COLLATE "C",
    profile text COLLATE "C",
    deliver text COLLATE "C" NOT NULL DEFAULT 'new_session' CHECK (deliver IN ('new_session', 'session')),
    target_session_id text COLLATE "C",
    deny_approvals bigint NOT NULL DEFAULT 1,
    enabled bigint NOT NULL DEFAULT 1,
    anchor double precision NOT NULL,
    last_slot double precision,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    rowid bigint generated always as identity
  );
  CREATE TABLE cron_runs (
    id bigint generated by default as identity PRIMARY KEY,
    job_id text COLLATE "C" NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
    slot double precision NOT NULL,
    trigger text COLLATE "C" NOT NULL DEFAULT 'schedule' CHECK (trigger IN ('schedule', 'catch_up', 'manual')),
    status text COLLATE "C" NOT NULL CHECK (status IN
      ('running', 'completed', 'error', 'skipped', 'missed', 'interrupted')),
    reason text COLLATE "C",
    session_id text COLLATE "C",
    stream_id text COLLATE "C",
    started_at double precision NOT NULL,
    finished_at double precision,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    cost double precision,
    output_head text COLLATE "C",
    UNIQUE (job_id, slot)
  );
  CREATE INDEX cron_runs_by_job ON cron_runs(job_id, started_at DESC);

  CREATE TABLE saved_prompts (
    name text COLLATE "C" PRIMARY KEY,
    content text COLLATE "C" NOT NULL,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE goals (
    session_id text COLLATE "C" PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    goal text COLLATE "C" NOT NULL,
    status text COLLATE "C" NOT NULL CHECK (status IN ('active', 'paused', 'done', 'blocked')),
    turns_used bigint NOT NULL DEFAULT 0,
    max_turns bigint NOT NULL,
    tokens_used bigint NOT NULL DEFAULT 0,
    max_tokens bigint NOT NULL,
    no_progress bigint NOT NULL DEFAULT 0,
    max_no_progress bigint NOT NULL,
    last_verdict text COLLATE "C",
    last_reason text COLLATE "C",
    paused_reason text COLLATE "C",
    subgoals text COLLATE "C" NOT NULL DEFAULT '[]',
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE app_state (
    key text COLLATE "C" PRIMARY KEY,
    value text COLLATE "C" NOT NULL
  );

  CREATE TABLE passkeys (
    id text COLLATE "C" PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    public_key bytea NOT NULL,
    counter bigint NOT NULL DEFAULT 0,
    transports text COLLATE "C" NOT NULL DEFAULT '[]',
    created_at double precision NOT NULL,
    last_used_at double precision,
    rowid bigint generated always as identity
  );
  CREATE TABLE auth_challenges (
    id text COLLATE "C" PRIMARY KEY,
    kind text COLLATE "C" NOT NULL,
    data text COLLATE "C" NOT NULL,
    expires_at double precision NOT NULL,
    rowid bigint generated always as identity
  );

  CREATE TABLE shares (
    token text COLLATE "C" PRIMARY KEY,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    title text COLLATE "C" NOT NULL,
    snapshot text COLLATE "C" NOT NULL,
    include_tools bigint NOT NULL DEFAULT 0,
    include_files bigint NOT NULL DEFAULT 0,
    created_at double precision NOT NULL,
    expires_at double precision,
    revoked_at double precision,
    rowid bigint generated always as identity
  );
  CREATE INDEX shares_by_session ON shares(session_id);

  CREATE TABLE message_variants (
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn_id text COLLATE "C" NOT NULL,
    n bigint NOT NULL,
    messages text COLLATE "C",
    tool_calls text COLLATE "C",
    created_at double precision NOT NULL,
    rowid bigint generated always as identity,
    PRIMARY KEY (session_id, turn_id, n)
  );

  -- A delegated child goes with its parent. Unlike SQLite (no recursive triggers), the nested
  -- delete fires this trigger again, so a child's own delegated children go too.
  CREATE FUNCTION delegate_children_ad() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM sessions WHERE parent_session_id = OLD.session_id AND delegate_call_id IS NOT NULL;
    RETURN NULL;
  END $$;
  CREATE TRIGGER delegate_children_ad AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION delegate_children_ad();

  -- Visible sessions per (archived, project), kept by triggers (see lib/sessions/session_page.ts).
  CREATE TABLE session_counts (
    archived bigint NOT NULL,
    project_id text COLLATE "C" NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (archived, project_id)
  );
  CREATE FUNCTION session_counts_ai() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO session_counts AS c VALUES (NEW.archived, coalesce(NEW.project_id, ''), 1)
      ON CONFLICT (archived, project_id) DO UPDATE SET n = c.n + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER session_counts_ai AFTER INSERT ON sessions FOR EACH ROW
    WHEN (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL)
    EXECUTE FUNCTION session_counts_ai();
  CREATE FUNCTION session_counts_ad() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE session_counts SET n = n - 1
    WHERE archived = OLD.archived AND project_id = coalesce(OLD.project_id, '');
    RETURN NULL;
  END $$;
  CREATE TRIGGER session_counts_ad AFTER DELETE ON sessions FOR EACH ROW
    WHEN (NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL)
    EXECUTE FUNCTION session_counts_ad();
  CREATE FUNCTION session_counts_au() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF (NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL) THEN
      UPDATE session_counts SET n = n - 1
      WHERE archived = OLD.archived AND project_id = coalesce(OLD.project_id, '');
    END IF;
    IF (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL) THEN
      INSERT INTO session_counts AS c VALUES (NEW.archived, coalesce(NEW.project_id, ''), 1)
        ON CONFLICT (archived, project_id) DO UPDATE SET n = c.n + 1;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER session_counts_au
    AFTER UPDATE OF archived, project_id, message_count, title, active_stream_id, delegate_call_id
    ON sessions FOR EACH ROW
    WHEN ((NOT (OLD.message_count = 0 AND OLD.title = 'Untitled' AND OLD.active_stream_id IS NULL) AND OLD.delegate_call_id IS NULL) IS DISTINCT FROM (NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL)
      OR ((NOT (NEW.message_count = 0 AND NEW.title = 'Untitled' AND NEW.active_stream_id IS NULL) AND NEW.delegate_call_id IS NULL) AND (OLD.archived IS DISTINCT FROM NEW.archived OR OLD.project_id IS DISTINCT FROM NEW.project_id)))
    EXECUTE FUNCTION session_counts_au();

  -- Bumped by every row of sessions written (lib/sessions/session_list_cache.ts): per row, as
  -- SQLite's triggers do, so a statement that changes nothing (a replica's periodic sweep) does
  -- not throw the cached list away.
  CREATE TABLE sessions_generation (id bigint PRIMARY KEY CHECK (id = 1), n bigint NOT NULL);
  INSERT INTO sessions_generation VALUES (1, 0);
  CREATE FUNCTION sessions_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE sessions_generation SET n = n + 1 WHERE id = 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER sessions_generation_bump AFTER INSERT OR UPDATE OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION sessions_generation_bump();
  `,
  },
  // 17: replicas (lib/replicas/): which process owns a running stream and until when its lease
  // holds (renewed every few seconds; an expired one is recovered by another process), and the
  // commands (cancel, steer, answers) waiting for the owning process.
  {
    sqlite: `
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
    postgres: `
  ALTER TABLE streams ADD COLUMN owner_replica text COLLATE "C";
  ALTER TABLE streams ADD COLUMN lease_until double precision;
  CREATE INDEX streams_running ON streams(status) WHERE status = 'running';
  CREATE TABLE run_commands (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    replica_id text COLLATE "C" NOT NULL,
    stream_id text COLLATE "C",
    kind text COLLATE "C" NOT NULL,
    payload text COLLATE "C" NOT NULL DEFAULT '{}',
    created_at double precision NOT NULL
  );
  CREATE INDEX run_commands_by_replica ON run_commands(replica_id, id);
  CREATE TABLE rate_hits (
    limiter text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    at double precision NOT NULL
  );
  CREATE INDEX rate_hits_by_key ON rate_hits(limiter, key, at);
  `,
  },
  // 18: whether a run's token counts were reported by the provider (0) or estimated from the
  // characters it sent (1, lib/engine/turn.ts): Insights and the message footers mark estimates,
  // and an estimate never enters tokens/s.
  {
    sqlite: `ALTER TABLE usage ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;`,
    postgres: `ALTER TABLE usage ADD COLUMN estimated bigint NOT NULL DEFAULT 0;`,
  },
  // 19: a shared rate limit's check-and-record as one call on PostgreSQL (lib/security/
  // shared_rate_limit.ts): the lock, the pruning, the count and the insert run inside the server
  // in one statement, so no lock is held while a console process's event loop is busy elsewhere
  // (as a transaction of four round trips did, and replicas then waited on each other's loops).
  // SQLite, one process and one connection, checks and records in a transaction of its own.
  {
    sqlite: `-- nothing: see lib/security/shared_rate_limit.ts`,
    postgres: `
  CREATE FUNCTION hermes_rate_hit(
    p_limiter text, p_key text, p_now double precision, p_window double precision,
    p_limit bigint, p_record boolean
  ) RETURNS TABLE (admitted boolean, hit_times double precision[])
  LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    n bigint;
  BEGIN
    -- Each statement below takes a new snapshot (a VOLATILE function at READ COMMITTED), so
    -- after the lock it sees the hits the previous holder committed.
    PERFORM pg_advisory_xact_lock(hashtext(p_limiter || ':' || p_key));
    DELETE FROM rate_hits r
      WHERE r.limiter = p_limiter AND r.key = p_key AND r.at <= p_now - p_window;
    SELECT count(*) INTO n FROM rate_hits r WHERE r.limiter = p_limiter AND r.key = p_key;
    admitted := n < p_limit;
    IF p_record AND admitted THEN
      INSERT INTO rate_hits (limiter, key, at) VALUES (p_limiter, p_key, p_now);
    END IF;
    SELECT coalesce(array_agg(r.at ORDER BY r.at), ARRAY[]::double precision[]) INTO hit_times
      FROM rate_hits r WHERE r.limiter = p_limiter AND r.key = p_key;
    RETURN NEXT;
  END $$;
  `,
  },
  // 20: the skills a scheduled task loads for its runs (lib/tasks/task_skills.ts), a JSON list
  // of skill names, as the original's jobs carry them.
  {
    sqlite: `ALTER TABLE cron_jobs ADD COLUMN skills TEXT NOT NULL DEFAULT '[]';`,
    postgres: `ALTER TABLE cron_jobs ADD COLUMN skills text COLLATE "C" NOT NULL DEFAULT '[]';`,
  },
  // 21: standing approvals ("Always allow") shared by every replica of one database
  // (lib/approvals/standing_rules_store.ts): made on one, enforced and listed on all; a removal
  // stays as a row (removed_at) so a replica whose own config.yaml still holds the rule obeys it.
  {
    sqlite: `
  CREATE TABLE standing_rules (
    rule_key TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('category', 'command')),
    workspace TEXT,
    command TEXT,
    created_at REAL,
    removed_at REAL
  ) WITHOUT ROWID;
  `,
    postgres: `
  CREATE TABLE standing_rules (
    rule_key text COLLATE "C" PRIMARY KEY,
    kind text COLLATE "C" NOT NULL CHECK (kind IN ('category', 'command')),
    workspace text COLLATE "C",
    command text COLLATE "C",
    created_at double precision,
    removed_at double precision
  );
  `,
  },
];
