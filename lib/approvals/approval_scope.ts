// What a lasting approval covers: `command` (this exact command text in this session's
// workspace — the narrow default the card offers) or `pattern` (every command of the category,
// the original Hermes behaviour and the API default). Exact grants are keys `command:[ws,cmd]`
// in session_approvals and, when permanent, `{workspace, command}` entries of config.yaml
// `command_allowlist_commands` (written by lib/approvals/standing_rules.ts). Invariant: an exact
// key never matches another text or workspace.

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
