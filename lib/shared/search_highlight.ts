// Browser-safe: imports nothing from Deno or the database.
// Which parts of a search result to highlight: the words a query matched, found the way the
// full-text search matches them (each query word as the prefix of a word, case-insensitive).
// Invariant: the segments concatenate back to the input exactly; nothing here is markup, so
// the renderer escapes every segment and wraps only the matched ones (in <mark>).

export interface HighlightSegment {
  text: string;
  match: boolean;
}

/** Query words, as lib/sessions/session_search.ts's toFtsQuery splits them (at most 16). */
export function queryWords(query: string): string[] {
  const words = query.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.slice(0, 16).map((w) => w.toLowerCase()))];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Split `text` into plain and matched segments for `query`: every whole word that starts
 * with a query word is a match (the search is by prefix, so `flak` marks `flaky`).
 */
export function highlightSegments(text: string, query: string): HighlightSegment[] {
  const words = queryWords(query).sort((a, b) => b.length - a.length);
  if (!text) return [];
  if (words.length === 0) return [{ text, match: false }];
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegExp).join("|")})[\\p{L}\\p{N}_]*`,
    "giu",
  );
  const out: HighlightSegment[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const start = m.index!;
    if (start > at) out.push({ text: text.slice(at, start), match: false });
    out.push({ text: m[0], match: true });
    at = start + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}
