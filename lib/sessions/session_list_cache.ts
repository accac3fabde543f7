// The unpaged session list (GET /api/sessions without `limit`, what the original's clients poll)
// as encoded JSON chunks, streamed as its batches are read and kept for reuse while the sessions
// table is unchanged. Polled every few seconds, an unchanged list is then answered without a
// query per batch nor the JSON work (~17 ms and ~5 MB of garbage at 10,000 sessions).
// Invariants: an entry is reused only while `sessions_generation` (bumped by triggers on every
// insert, update and delete of a session, storage migration 16) is the one it was built at, and
// stored only when no change happened while it was being read; memory is bounded by bytes, not
// by history: one entry per database of at most MAX_CACHED_BYTES, and at most one answer at a
// time collects chunks to store (every other miss streams and keeps nothing), dropping them as
// soon as they pass the bound. A list the last answers' row size says is too big to keep is
// not collected at all.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { encodeListChunk } from "../server/http.ts";

/**
 * Lists bigger than this are streamed every time rather than kept (~60,000 sessions). Sized by
 * the memory bench: at 50,000 sessions the kept list (26 MB) and the server stay under the
 * 170 MB target, and a polled list is then answered from memory (`deno task bench memory`).
 */
export const MAX_CACHED_BYTES = 32 * 1024 * 1024;

/**
 * A collecting answer whose client went silent for this long (neither finished nor cancelled)
 * no longer stops another from collecting.
 */
const COLLECTOR_STALE_MS = 60_000;

interface Entry {
  /** The filter the list answers (its canonical JSON). */
  key: string;
  generation: number;
  count: number;
  /** The items' JSON in the encoded batches they were built in (lib/server/http.ts chunks). */
  chunks: Uint8Array[];
}

const entries = new WeakMap<AsyncQueries, Entry>();
/** When the answer now collecting chunks for a database last made progress. */
const collecting = new WeakMap<AsyncQueries, { at: number }>();
/** Encoded bytes per session in the last list read, to tell beforehand that one is too big. */
const bytesPerRow = new WeakMap<AsyncQueries, number>();

/** How the list is read on a miss: its total, then its items in batches. */
export interface ListSource {
  count(): Promise<number>;
  batches(): AsyncIterable<readonly unknown[]>;
}

/** The list's total and its items as encoded JSON chunks (no brackets), read as consumed. */
export interface EncodedList {
  count: number;
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** The sessions table's change counter. */
export async function sessionsGeneration(db: AsyncQueries): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT n FROM sessions_generation WHERE id = 1`);
  return row ? Number(row.n) : -1;
}

/**
 * The list for `key`: the cached chunks while the table is unchanged, else read from `source`
 * a batch at a time as the caller consumes the chunks (a miss streams too). The total and the
 * generation are read before this returns, so a database that does not answer fails the request
 * before its response starts.
 */
export async function sessionListChunks(
  db: AsyncQueries,
  key: string,
  source: ListSource,
): Promise<EncodedList> {
  const generation = await sessionsGeneration(db);
  const hit = entries.get(db);
  if (hit && hit.key === key && hit.generation === generation) {
    return { count: hit.count, chunks: hit.chunks };
  }
  const count = await source.count();
  return { count, chunks: readAndKeep(db, key, generation, count, source) };
}

async function* readAndKeep(
  db: AsyncQueries,
  key: string,
  generation: number,
  count: number,
  source: ListSource,
): AsyncGenerator<Uint8Array> {
  const busy = collecting.get(db);
  const tooBig = count * (bytesPerRow.get(db) ?? 0) > MAX_CACHED_BYTES;
  const mine = !tooBig && (!busy || Date.now() - busy.at > COLLECTOR_STALE_MS)
    ? { at: Date.now() }
    : null;
  if (mine) collecting.set(db, mine);
  let kept: Uint8Array[] | null = mine ? [] : null;
  let bytes = 0;
  let rows = 0;
  try {
    for await (const items of source.batches()) {
      if (items.length === 0) continue;
      const chunk = encodeListChunk(items);
      bytes += chunk.byteLength;
      rows += items.length;
      if (kept && bytes > MAX_CACHED_BYTES) {
        // Past the bound the list is not kept: let the chunks go with the response.
        kept = null;
        bytesPerRow.set(db, bytes / rows);
      }
      kept?.push(chunk);
      yield chunk;
      if (mine) mine.at = Date.now();
    }
    if (rows > 0) bytesPerRow.set(db, bytes / rows);
    // Keep it only if nothing changed while the batches were read (they span awaits).
    if (kept && await sessionsGeneration(db) === generation) {
      entries.set(db, { key, generation, count, chunks: kept });
    }
  } finally {
    if (mine && collecting.get(db) === mine) collecting.delete(db);
  }
}
