// What a lasting approval covers: `command` (this exact command text in this session's
// workspace — the narrow default the card offers) or `pattern` (every command of the category,
// the original Hermes behaviour and the API default). Exact grants are keys `command:[ws,cmd]`
// in session_approvals and, when permanent, `{workspace, command}` entries of config.yaml
// `command_allowlist_commands`. Invariant: an exact key never matches another text or workspace.
import type { Document } from "yaml";
import { isSeq } from "yaml";
import { updateConfigDocument } from "../settings/config_writer.ts";
import { ValidationError } from "../errors.ts";

export type ApprovalScope = "command" | "pattern";
export const APPROVAL_SCOPES: readonly ApprovalScope[] = ["command", "pattern"];

/** The grant key of one exact command in one workspace (whitespace at the ends ignored). */
export function commandGrantKey(workspace: string, command: string): string {
  // JSON keeps the pair unambiguous and free of NUL (SQLite text would cut it there).
  return `command:${JSON.stringify([workspace, command.trim()])}`;
}

/** A rule as people read it: the category key, or the quoted command for an exact grant. */
export function describeGrant(key: string): string {
  if (!key.startsWith("command:")) return key;
  try {
    const [, cmd] = JSON.parse(key.slice("command:".length)) as [string, string];
    return `exact command "${cmd}"`;
  } catch {
    return key;
  }
}

/** Exact grant keys from `command_allowlist_commands` (malformed entries are skipped). */
export function exactAllowlistFromConfig(file: Record<string, unknown> | undefined): string[] {
  const list = file?.command_allowlist_commands;
  if (!Array.isArray(list)) return [];
  const keys: string[] = [];
  for (const item of list) {
    if (!item || typeof item !== "object") continue;
    const { workspace, command } = item as Record<string, unknown>;
    if (typeof workspace === "string" && typeof command === "string" && command.trim()) {
      keys.push(commandGrantKey(workspace, command));
    }
  }
  return keys;
}

/** Add one exact command to `command_allowlist_commands`, keeping the rest of config.yaml. */
export async function addExactToAllowlist(
  configPath: string,
  workspace: string,
  command: string,
): Promise<void> {
  await updateConfigDocument(configPath, (doc: Document) => {
    const existing = doc.get("command_allowlist_commands", true);
    if (existing !== undefined && existing !== null && !isSeq(existing)) {
      throw new ValidationError(
        `Config file ${configPath}: command_allowlist_commands must be a list; it was not changed`,
      );
    }
    if (!existing) {
      doc.set("command_allowlist_commands", doc.createNode([]));
      const node = doc.get("command_allowlist_commands", true) as { commentBefore?: string };
      node.commentBefore = " Exact terminal commands approved forever, per workspace";
    }
    const want = commandGrantKey(workspace, command);
    const have = exactAllowlistFromConfig({
      command_allowlist_commands: doc.toJS()?.command_allowlist_commands,
    });
    if (have.includes(want)) return;
    const seq = doc.get("command_allowlist_commands", true) as { add(v: unknown): void };
    seq.add(doc.createNode({ workspace, command: command.trim() }));
  });
}
