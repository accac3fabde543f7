// Browser-safe: imports nothing from Deno or the database.
// What a running turn is doing now, for its collapsed Activity row: "Running `pytest`",
// "Reading calc.py", "Waiting for your approval", "Thinking". Invariants: one short line
// (targets clipped), derived only from the turn's tool views, never from the model's prose.
import type { ToolView } from "./transcript_turns.ts";

/** Longest target quoted in the line. */
export const STATUS_TARGET_CHARS = 60;

const VERBS: Record<string, string> = {
  read_file: "Reading",
  write_file: "Writing",
  patch: "Editing",
  list_directory: "Listing",
  search_files: "Searching",
  delegate: "Delegating",
  memory: "Updating memory",
  skill: "Reading skill",
};

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > STATUS_TARGET_CHARS ? one.slice(0, STATUS_TARGET_CHARS - 1) + "…" : one;
}

/** The live line for a running turn (null when nothing is running). */
export function liveStatus(tools: readonly ToolView[], live: boolean): string | null {
  if (!live) return null;
  const busy = [...tools].reverse().find((t) =>
    t.status === "running" || t.status === "pending" || t.status === "awaiting_approval"
  );
  if (!busy) return "Thinking";
  if (busy.status === "awaiting_approval") return "Waiting for your approval";
  const target = clip(busy.target);
  if (busy.name === "terminal") return target ? `Running \`${target}\`` : "Running a command";
  const verb = VERBS[busy.name];
  if (verb) return target ? `${verb} ${target}` : verb;
  return `Using ${busy.name}${target ? ` on ${target}` : ""}`;
}
