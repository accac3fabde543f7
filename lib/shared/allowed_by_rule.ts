// Browser-safe: imports nothing from Deno or the database.
// The note a tool result opens with when a grant answered without asking. The terminal tool
// writes it for the model (lib/tools/terminal.ts): "[allowed by rule `rm_recursive, sudo`]" for
// categories, "[allowed by rule `exact command "…"`]" for one exact command (its text may hold
// backticks or newlines). People never read it raw: views split it off and show the rule in
// words beside the output (components/AllowedByRule.tsx).

/** What allowed the call: one exact command, or every command of these categories. */
export type AllowedGrant =
  | { kind: "command" }
  | { kind: "category"; keys: string[] };

export interface AllowedNote {
  grant: AllowedGrant;
  /** The tool's own output after the note. */
  rest: string;
}

const EXACT = /^\[allowed by rule `exact command "[\s\S]*?"`\]\n?/;
const CATEGORY = /^\[allowed by rule `([^`\n]{1,300})`\]\n?/;

/** Split a tool result into the rule note (if it opens with one) and the output after it. */
export function readAllowedNote(result: string | null | undefined): AllowedNote | null {
  if (!result || !result.startsWith("[allowed by rule `")) return null;
  const exact = EXACT.exec(result);
  if (exact) return { grant: { kind: "command" }, rest: result.slice(exact[0].length) };
  const category = CATEGORY.exec(result);
  if (!category) return null;
  const keys = category[1].split(",").map((k) => k.trim()).filter(Boolean);
  if (keys.length === 0) return null;
  return { grant: { kind: "category", keys }, rest: result.slice(category[0].length) };
}

/** A result as a person reads it: without the note (views show the rule on its own). */
export function withoutAllowedNote(result: string): string {
  return readAllowedNote(result)?.rest ?? result;
}
