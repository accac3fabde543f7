// Unified diffs for the Git panel: split one file's `git diff` into its header and hunks, and build
// the patch that stages or unstages exactly one hunk (`git apply --cached [--reverse]`).
// Pure text functions (no git, no filesystem); a hunk is named by its index and its `@@` header so
// a stale click (the file changed since the diff was shown) is refused rather than misapplied.

/** One `@@ -a,b +c,d @@` block of a file diff. */
export interface DiffHunk {
  index: number;
  /** The `@@ … @@` line, verbatim (with any function context after it). */
  header: string;
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  /** The hunk's lines after the header (each starting with " ", "+", "-" or "\\"). */
  lines: string[];
}

export interface ParsedFileDiff {
  /** Everything before the first hunk: `diff --git`, index, mode, `---`/`+++` lines. */
  header: string[];
  hunks: DiffHunk[];
  binary: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parse the diff of ONE file (as `git diff -- <path>` prints it). */
export function parseFileDiff(text: string): ParsedFileDiff {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header: string[] = [];
  const hunks: DiffHunk[] = [];
  let binary = false;
  for (const line of lines) {
    const m = line.match(HUNK);
    if (m) {
      hunks.push({
        index: hunks.length,
        header: line,
        old_start: Number(m[1]),
        old_lines: m[2] === undefined ? 1 : Number(m[2]),
        new_start: Number(m[3]),
        new_lines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      });
    } else if (hunks.length) hunks.at(-1)!.lines.push(line);
    else {
      if (line.startsWith("Binary files ") || line === "GIT binary patch") binary = true;
      header.push(line);
    }
  }
  return { header, hunks, binary };
}

/** Lines added and removed in a diff (its `+++`/`---` file lines excluded). */
export function diffStats(text: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) additions++;
    else if (line.startsWith("-")) deletions++;
  }
  return { additions, deletions };
}

/**
 * The patch holding only hunk `index` of `diff` (a file's diff). `expectedHeader`, when given,
 * must equal that hunk's `@@` line, else null (the diff moved on since it was shown).
 */
export function hunkPatch(
  diff: ParsedFileDiff,
  index: number,
  expectedHeader?: string,
): string | null {
  const hunk = diff.hunks[index];
  if (!hunk || diff.binary) return null;
  if (expectedHeader !== undefined && expectedHeader !== hunk.header) return null;
  if (
    !diff.header.some((l) => l.startsWith("--- ")) || !diff.header.some((l) => l.startsWith("+++ "))
  ) {
    return null;
  }
  return [...diff.header, hunk.header, ...hunk.lines].join("\n") + "\n";
}
