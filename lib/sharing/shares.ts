// Share links: a revocable, optionally expiring capability to read one frozen snapshot of a
// conversation at `/share/<token>`. Invariants: a token is 256 bits from the platform CSPRNG
// (base64url); an unknown, revoked or expired token reads as null, indistinguishably; the
// snapshot never changes after creation (later edits to the session do not reach it).
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { getSession } from "../sessions/sessions.ts";
import { parseJsonColumn } from "../storage/db.ts";
import { type ShareSnapshot, type SnapshotOptions, takeSnapshot } from "./share_snapshot.ts";

/** Longest expiry a share may ask for. */
export const MAX_EXPIRY_DAYS = 3650;
/** base64url of 32 bytes: what a well-formed token looks like (anything else is a 404). */
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export interface Share {
  token: string;
  url: string;
  session_id: string;
  title: string;
  include_tools: boolean;
  include_files: boolean;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  /** Not revoked and not expired at the time of the read. */
  active: boolean;
}

export interface NewShareInput extends Partial<SnapshotOptions> {
  sessionId: string;
  /** Days until the link stops working; absent or null for a link that lasts until revoked. */
  expiresInDays?: number | null;
}

interface ShareRow {
  token: string;
  session_id: string;
  title: string;
  include_tools: number;
  include_files: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

// Named, never `*`: on PostgreSQL every table also has a `rowid` that must not leak into a Share.
const COLUMNS = sql.raw(
  "token, session_id, title, include_tools, include_files, created_at, expires_at, revoked_at",
);

/** A fresh 256-bit token, base64url without padding. */
export function newShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function toShare(row: ShareRow, now: number): Share {
  return {
    token: row.token,
    url: `/share/${row.token}`,
    session_id: row.session_id,
    title: row.title,
    include_tools: row.include_tools === 1,
    include_files: row.include_files === 1,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    active: row.revoked_at === null && (row.expires_at === null || row.expires_at > now),
  };
}

/** Freeze `sessionId`'s conversation now and make a link to it. */
export async function createShare(
  db: AsyncQueries,
  clock: Clock,
  input: NewShareInput,
): Promise<Share> {
  const days = input.expiresInDays ?? null;
  if (days !== null && !(Number.isFinite(days) && days > 0 && days <= MAX_EXPIRY_DAYS)) {
    throw new ValidationError(
      `expires_in_days must be a number of days from 1 to ${MAX_EXPIRY_DAYS}, got ${days}`,
    );
  }
  const session = await getSession(db, input.sessionId);
  const opts = { includeTools: !!input.includeTools, includeFiles: !!input.includeFiles };
  // Files come with their tool calls: "include files" alone would have nothing to attach to.
  if (opts.includeFiles) opts.includeTools = true;
  const snapshot = await takeSnapshot(db, session.session_id, session.title, opts);
  const now = clock();
  const row: ShareRow = {
    token: newShareToken(),
    session_id: session.session_id,
    title: session.title,
    include_tools: opts.includeTools ? 1 : 0,
    include_files: opts.includeFiles ? 1 : 0,
    created_at: now,
    expires_at: days === null ? null : now + days * 86400,
    revoked_at: null,
  };
  await db.run(
    sql`INSERT INTO shares (${COLUMNS}, snapshot)
        VALUES (${row.token}, ${row.session_id}, ${row.title}, ${row.include_tools},
                ${row.include_files}, ${row.created_at}, ${row.expires_at}, ${row.revoked_at},
                ${JSON.stringify(snapshot)})`,
  );
  return toShare(row, now);
}

/** Every share, newest first (revoked and expired ones too, marked inactive). */
export async function listShares(
  db: AsyncQueries,
  clock: Clock,
  sessionId?: string,
): Promise<Share[]> {
  const rows = await db.all<ShareRow>(
    sessionId
      ? sql`SELECT ${COLUMNS} FROM shares WHERE session_id = ${sessionId}
            ORDER BY created_at DESC, token`
      : sql`SELECT ${COLUMNS} FROM shares ORDER BY created_at DESC, token`,
  );
  const now = clock();
  return rows.map((r) => toShare(r, now));
}

/**
 * Revoke a share by its token. Revoking twice is fine; an unknown token is a NotFoundError
 * (this is the owner's API, behind login, so saying so leaks nothing).
 */
export async function revokeShare(db: AsyncQueries, clock: Clock, token: string): Promise<Share> {
  const now = clock();
  // coalesce keeps the first revocation time; RETURNING reads the row in the same statement.
  const row = await db.get<ShareRow>(
    sql`UPDATE shares SET revoked_at = coalesce(revoked_at, ${now})
        WHERE token = ${token} RETURNING ${COLUMNS}`,
  );
  if (!row) throw new NotFoundError(`Share "${token.slice(0, 12)}…" not found`);
  return toShare(row, now);
}

/** Revoke every share of a session (the original's revoke-by-session); returns how many. */
export async function revokeSessionShares(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
): Promise<number> {
  await getSession(db, sessionId);
  const { changes } = await db.run(
    sql`UPDATE shares SET revoked_at = ${clock()}
        WHERE session_id = ${sessionId} AND revoked_at IS NULL`,
  );
  return changes;
}

/**
 * The snapshot behind a live token, or null for a token that is malformed, unknown, revoked or
 * expired (the public page answers all of them with the same 404).
 */
export async function readSharedSnapshot(
  db: AsyncQueries,
  clock: Clock,
  token: string,
): Promise<{ share: Share; snapshot: ShareSnapshot } | null> {
  if (!TOKEN_RE.test(token)) return null;
  const row = await db.get<ShareRow & { snapshot: string }>(
    sql`SELECT ${COLUMNS}, snapshot FROM shares WHERE token = ${token}`,
  );
  if (!row) return null;
  const share = toShare(row, clock());
  if (!share.active) return null;
  const snapshot = parseJsonColumn<ShareSnapshot | null>(row.snapshot, null);
  return snapshot ? { share, snapshot } : null;
}
