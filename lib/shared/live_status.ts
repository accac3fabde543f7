// Browser-safe: imports nothing from Deno or the database.
// What a running turn is doing now, for its collapsed Activity row: "Running `pytest`",
// "Reading calc.py", "Waiting for your approval", "Thinking". Invariants: one short line
// (targets clipped), derived only from the turn's tool views, never from the model's prose.
import type { ToolView } from "./transcript_turns.ts";
import { t } from "../i18n/t.ts";

/** Longest target quoted in the line. */
export const STATUS_TARGET_CHARS = 60;

/** Catalog keys per tool: the bare verb ("Reading") and with its target ("Reading {target}"). */
const VERBS: Record<string, [bare: string, withTarget: string]> = {
  read_file: ["activity.liveReading", "activity.liveReadingTarget"],
  write_file: ["activity.liveWriting", "activity.liveWritingTarget"],
  patch: ["activity.liveEditing", "activity.liveEditingTarget"],
  list_directory: ["activity.liveListing", "activity.liveListingTarget"],
  search_files: ["activity.liveSearching", "activity.liveSearchingTarget"],
  delegate: ["activity.liveDelegating", "activity.liveDelegatingTarget"],
  memory: ["activity.liveMemory", "activity.liveMemoryTarget"],
  skill: ["activity.liveSkill", "activity.liveSkillTarget"],
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
  if (!busy) return t("activity.liveThinking");
  if (busy.status === "awaiting_approval") return t("activity.liveApproval");
  const target = clip(busy.target);
  if (busy.name === "terminal") {
    return target ? t("activity.liveCommandTarget", { target }) : t("activity.liveCommand");
  }
  const verb = VERBS[busy.name];
  if (verb) return target ? t(verb[1], { target }) : t(verb[0]);
  const tool = busy.name;
  return target ? t("activity.liveToolTarget", { tool, target }) : t("activity.liveTool", { tool });
}
