// Search-result snippets as people read them: the message's markdown reduced to plain text
// (no fences, backticks, link targets, emphasis marks or table pipes), then a window of whole
// words centred on the first matched word, so the highlighted word is never cut off.
// Browser-safe (pure string work); used by lib/sessions/session_search.ts.

/** Markdown → plain text, one line: what a reader sees, not the syntax. */
export function markdownToPlain(md: string): string {
  return md
    .replace(/```[^\n]*\n?/g, " ") // fence lines (keep the code itself: it may be the match)
    .replace(/~~~[^\n]*\n?/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1") // images → alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // links → their text
    .replace(/^\s{0,3}#{1,6}\s+/gm, "") // headings
    .replace(/^\s{0,3}>\s?/gm, "") // quotes
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, "") // list markers, task boxes
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*$/gm, " ") // table rules
    .replace(/^\s*\|(.*?)\|?\s*$/gm, (_, row: string) =>
      // table rows → cells with dots
      row.split("|").map((c) => c.trim()).filter(Boolean).join(" · "))
    .replace(/`+/g, "")
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[\s(])[*_](?=\S)([^*_\n]*?\S)[*_](?=[\s).,:;!?]|$)/g, "$1$2")
    .replace(/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/gm, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Word tokens of a query, lower-cased, as toFtsQuery splits them. */
export function queryTokens(query: string): string[] {
  return (query.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 16);
}

/**
 * A window of about `width` characters of `text` (plain) around the first word starting with
 * one of `tokens`, cut only between words, with "…" where it was cut.
 */
export function snippetAround(text: string, tokens: string[], width = 120): string {
  if (text.length <= width) return text;
  const lower = text.toLowerCase();
  let at = -1;
  let len = 0;
  for (const m of lower.matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (tokens.some((t) => m[0].startsWith(t))) {
      at = m.index!;
      len = m[0].length;
      break;
    }
  }
  if (at < 0) at = 0;
  let start = Math.max(0, Math.round(at + len / 2 - width / 2));
  let end = Math.min(text.length, start + width);
  start = Math.max(0, end - width);
  // Never cut through a word: move outward to the nearest blank (the match is inside).
  if (start > 0) {
    const blank = text.lastIndexOf(" ", start);
    start = blank < 0 ? 0 : blank + 1;
  }
  if (end < text.length) {
    const blank = text.indexOf(" ", end);
    end = blank < 0 ? text.length : blank;
  }
  return (start > 0 ? "…" : "") + text.slice(start, end).trim() + (end < text.length ? "…" : "");
}

/**
 * The sidebar snippet of one message for one query. The default width is about what one
 * sidebar row shows (its line is cut with an ellipsis), so the centred match stays visible.
 */
export function searchSnippet(markdown: string, query: string, width = 44): string {
  return snippetAround(markdownToPlain(markdown), queryTokens(query), width);
}
