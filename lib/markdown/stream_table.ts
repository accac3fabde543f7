// Browser-safe: imports nothing from Deno or the database.
// A table the model is still writing: until its delimiter row (`|---|---|`) is complete,
// markdown sees only a paragraph of pipes. For the live tail alone (never for settled blocks
// nor the final render) the missing or half-written delimiter is supplied, so the table shows
// as a table from its header row on and grows row by row.

const HEADER = /^ {0,3}\|.*\|/;
const PARTIAL_DELIMITER = /^ {0,3}\|?[\s:|-]*$/;

/** `src` with a provisional delimiter row when its last block is a table header in progress. */
export function provisionalTable(src: string): string {
  const blank = src.lastIndexOf("\n\n");
  const start = blank < 0 ? 0 : blank + 2;
  const block = src.slice(start);
  const lines = block.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0 || lines.length > 2 || !HEADER.test(lines[0])) return src;
  if (PARTIAL_DELIMITER.test(lines[0])) return src; // `|---|` alone is no header
  if (lines.length === 2 && !PARTIAL_DELIMITER.test(lines[1])) return src;
  // Inside a fenced code block nothing is a table: an odd number of fences before it.
  if (((src.slice(0, start).match(/^ {0,3}(```|~~~)/gm) ?? []).length % 2) === 1) return src;
  const cells = lines[0].trim().replace(/^\|/, "").replace(/\|$/, "").split("|").length;
  const delimiter = `|${" --- |".repeat(cells)}`;
  return `${src.slice(0, start)}${lines[0]}\n${delimiter}\n`;
}
