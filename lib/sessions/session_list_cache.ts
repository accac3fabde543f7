// The unpaged session list (GET /api/sessions without `limit`, what the original's clients poll)
// serialized once and reused until the sessions table changes. At 10,000 sessions the list is
// ~5 MB of JSON; building it per request cost ~17 ms and ~5 MB of garbage each time, which kept
// the heap high. Invariants: an entry is reused only while `sessions_generation` (bumped by
// triggers on every insert, update and delete of a session, storage migration 16) is the one it
// was built at, and stored only when no change happened while it was being read; one entry per
// database, and none above MAX_CACHED_BYTES, so the cache is bounded.
import type { Db } from "../storage/db.ts";
import { encodeListChunk } from "../server/http.ts";

/** Lists bigger than this are streamed every time rather than kept (~30,000 sessions). */
export const MAX_CACHED_BYTES = 16 * 1024 * 1024;

interface Entry {
  /** The filter the list answers (its canonical JSON). */
  key: string;
  generation: number;
  count: number;
  /** The items' JSON in the encoded batches they were built in (lib/server/http.ts chunks). */
  chunks: Uint8Array[];
}

const entries = new WeakMap<Db, Entry>();

/** The sessions table's change counter. */
export function sessionsGeneration(db: Db): number {
  const row = db.prepare("SELECT n FROM sessions_generation WHERE id = 1").get() as
    | { n: number }
    | undefined;
  return row?.n ?? -1;
}

/**
 * The list's items for `key` as encoded JSON chunks (no brackets): the cached ones while the
 * table is unchanged, else read through `read` (batches of rows, null at the end), handing each
 * chunk to the caller as it is made so a miss still streams.
 */
export function sessionListChunks(
  db: Db,
  key: string,
  read: () => { count: number; next(): readonly unknown[] | null },
): { count: number; next(): Uint8Array | null } {
  const generation = sessionsGeneration(db);
  const hit = entries.get(db);
  if (hit && hit.key === key && hit.generation === generation) {
    let i = 0;
    return { count: hit.count, next: () => (i < hit.chunks.length ? hit.chunks[i++] : null) };
  }
  const source = read();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  return {
    count: source.count,
    next() {
      for (;;) {
        const items = source.next();
        if (items === null) {
          // Keep it only if nothing changed while the batches were read (they span awaits).
          if (bytes <= MAX_CACHED_BYTES && sessionsGeneration(db) === generation) {
            entries.set(db, { key, generation, count: source.count, chunks });
          }
          return null;
        }
        if (items.length === 0) continue;
        const chunk = encodeListChunk(items);
        bytes += chunk.byteLength;
        if (bytes <= MAX_CACHED_BYTES) chunks.push(chunk);
        return chunk;
      }
    },
  };
}
