// Standing approvals: what "Always allow" on an approval card leaves behind, kept in config.yaml
// under the original's keys — `command_allowlist` (category keys, the plain list the original
// writes) and `command_allowlist_commands` (one `{workspace, command}` per exact command) — plus
// when each was made: `added_at` inside an exact entry and, so the original's list keeps its
// shape, a side map `command_allowlist_added_at` (key → ISO time) for categories. A rule written
// by hand has no time. The database holds them too (standing_rules_store.ts), so replicas sharing
// it list and enforce the same rules. Invariant: a removal has taken effect when it returns — the
// file, this process's grants, the database (every replica) and every session's copy of the
// grant — so the next matching call asks, wherever it runs.
import { createHash } from "node:crypto";
import type { Document } from "yaml";
import { isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from "yaml";
import { updateConfigDocument } from "../settings/config_writer.ts";
import { ConfigError, parseConfigText } from "../settings/config.ts";
import { type Db, sql } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Clock } from "../ids.ts";
import { commandGrantKey } from "./approval_scope.ts";
import { PATTERNS } from "./command_patterns.ts";
import { revokeStandingRule, storedStandingRules } from "./standing_rules_store.ts";

const CATEGORY_LIST = "command_allowlist";
const COMMAND_LIST = "command_allowlist_commands";
const CATEGORY_TIMES = "command_allowlist_added_at";

/** One standing rule as the API shows it (GET /api/approval/rules). */
export type StandingRule =
  | {
    id: string;
    kind: "category";
    /** The policy's category key (lib/approvals/command_patterns.ts) or `mcp:<server>:<tool>`. */
    pattern_key: string;
    /** What the category covers, in words (English; the page words it in its language). */
    description: string | null;
    /** When it was made (clock seconds), or null when nothing recorded it. */
    created_at: number | null;
  }
  | {
    id: string;
    kind: "command";
    command: string;
    workspace: string;
    created_at: number | null;
  };

/** The grants a process holds in memory (ApprovalHub satisfies it). */
export interface StandingGrants {
  allowlist: Set<string>;
  exact: Set<string>;
}

/** What listing and removing need of the app (AppContext satisfies it). */
export interface StandingRulesApp {
  db: Db;
  clock: Clock;
  log: Logger;
  config: { configPath: string };
  tools: { approvals: StandingGrants };
}

/** A time as config.yaml keeps it: ISO 8601 in UTC, to the second. */
function isoOf(at: number): string {
  return new Date(Math.round(at) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A recorded time back in clock seconds; anything unreadable is "not recorded". */
function secondsOf(value: unknown): number | null {
  if (value instanceof Date) return Math.round(value.getTime() / 1000);
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : Math.round(ms / 1000);
  }
  return null;
}

/** A rule's id: stable across restarts, and free of the command text (it travels in URLs). */
export function categoryRuleId(key: string): string {
  return `category:${key}`;
}

export function commandRuleId(workspace: string, command: string): string {
  const digest = createHash("sha256").update(commandGrantKey(workspace, command)).digest("hex");
  return `command:${digest.slice(0, 24)}`;
}

function categoryRule(key: string, createdAt: number | null): StandingRule {
  const known = (PATTERNS as Record<string, { description: string }>)[key];
  return {
    id: categoryRuleId(key),
    kind: "category",
    pattern_key: key,
    description: known?.description ?? null,
    created_at: createdAt,
  };
}

function commandRule(workspace: string, command: string, createdAt: number | null): StandingRule {
  return {
    id: commandRuleId(workspace, command),
    kind: "command",
    command: command.trim(),
    workspace,
    created_at: createdAt,
  };
}

/** The rules a parsed config file holds (entries of the wrong shape are skipped, as at start). */
export function rulesFromConfig(file: Record<string, unknown>): StandingRule[] {
  const rules: StandingRule[] = [];
  const times = file[CATEGORY_TIMES];
  const timeOf = (key: string) =>
    times && typeof times === "object" && !Array.isArray(times)
      ? secondsOf((times as Record<string, unknown>)[key])
      : null;
  const categories = file[CATEGORY_LIST];
  if (Array.isArray(categories)) {
    for (const key of new Set(categories.filter((k): k is string => typeof k === "string"))) {
      rules.push(categoryRule(key, timeOf(key)));
    }
  }
  const commands = file[COMMAND_LIST];
  if (Array.isArray(commands)) {
    const seen = new Set<string>();
    for (const item of commands) {
      if (!item || typeof item !== "object") continue;
      const { workspace, command, added_at } = item as Record<string, unknown>;
      if (typeof workspace !== "string" || typeof command !== "string" || !command.trim()) continue;
      const key = commandGrantKey(workspace, command);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(commandRule(workspace, command, secondsOf(added_at)));
    }
  }
  return rules;
}

async function readConfigFile(path: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  return parseConfigText(text, path);
}

/**
 * Every standing rule in effect: those in config.yaml, and any this process still honours that
 * the file no longer holds (edited by hand while running), so nothing allowed stays unseen.
 * Newest first; rules without a time last.
 */
export async function listStandingRules(app: StandingRulesApp): Promise<StandingRule[]> {
  let file: Record<string, unknown> | null = null;
  try {
    file = await readConfigFile(app.config.configPath);
  } catch (err) {
    // A file broken by hand while running: the rules in effect are still listed (and the
    // Control Center still opens); a removal then says what is wrong with the file.
    if (!(err instanceof ConfigError)) throw err;
    app.log.warn("config.yaml could not be read for the standing approvals", {
      error: err.message,
    });
  }
  // What the database says (every replica's rules) first: it has their times, and its removals
  // overrule a config file this replica read before another removed the rule.
  const stored = await storedStandingRules(app.db);
  const rules: StandingRule[] = stored.active.flatMap((r) =>
    r.kind === "category"
      ? [categoryRule(r.rule_key, r.created_at)]
      : r.workspace !== null && r.command !== null
      ? [commandRule(r.workspace, r.command, r.created_at)]
      : []
  );
  const listed = new Set(rules.map((r) => r.id));
  const add = (rule: StandingRule, key: string) => {
    if (listed.has(rule.id) || stored.removed.has(key)) return;
    listed.add(rule.id);
    rules.push(rule);
  };
  for (const rule of file ? rulesFromConfig(file) : []) {
    add(
      rule,
      rule.kind === "category" ? rule.pattern_key : commandGrantKey(rule.workspace, rule.command),
    );
  }
  const grants = app.tools.approvals;
  for (const key of grants.allowlist) add(categoryRule(key, null), key);
  for (const key of grants.exact) {
    const pair = decodeCommandKey(key);
    if (pair) add(commandRule(pair[0], pair[1], null), key);
  }
  return rules.sort((a, b) => (b.created_at ?? -1) - (a.created_at ?? -1));
}

function decodeCommandKey(key: string): [string, string] | null {
  if (!key.startsWith("command:")) return null;
  try {
    const pair = JSON.parse(key.slice("command:".length));
    return Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string"
      ? [pair[0], pair[1]]
      : null;
  } catch {
    return null;
  }
}

/**
 * Remove one standing rule. It ends at once everywhere this console honours it: config.yaml,
 * this process's grants, and the session grants "Always allow" also wrote (session_approvals,
 * in every session — a chat that allowed the same thing for its session asks again too).
 * An unknown id → NotFoundError.
 */
export async function removeStandingRule(
  app: StandingRulesApp,
  id: string,
): Promise<StandingRule> {
  const rule = (await listStandingRules(app)).find((r) => r.id === id);
  if (!rule) throw new NotFoundError(`No standing approval has the id "${id}"`);
  if (await exists(app.config.configPath)) {
    await updateConfigDocument(app.config.configPath, (doc) => removeFromDocument(doc, rule));
  }
  const grants = app.tools.approvals;
  const key = rule.kind === "category"
    ? rule.pattern_key
    : commandGrantKey(rule.workspace, rule.command);
  if (rule.kind === "category") grants.allowlist.delete(key);
  else grants.exact.delete(key);
  await revokeStandingRule(app.db, {
    rule_key: key,
    kind: rule.kind,
    workspace: rule.kind === "command" ? rule.workspace : null,
    command: rule.kind === "command" ? rule.command : null,
  }, app.clock());
  await app.db.run(sql`DELETE FROM session_approvals WHERE pattern_key = ${key}`);
  app.log.info("standing approval removed", {
    kind: rule.kind,
    ...(rule.kind === "category" ? { pattern_key: rule.pattern_key } : {}),
  });
  return rule;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

function removeFromDocument(doc: Document, rule: StandingRule): void {
  if (rule.kind === "category") {
    const list = doc.get(CATEGORY_LIST, true);
    if (isSeq(list)) {
      list.items = list.items.filter((item) =>
        !(isScalar(item) && item.value === rule.pattern_key)
      );
    }
    const times = doc.get(CATEGORY_TIMES, true);
    if (isMap(times)) {
      times.delete(rule.pattern_key);
      if (times.items.length === 0) doc.delete(CATEGORY_TIMES);
    }
    return;
  }
  const list = doc.get(COMMAND_LIST, true);
  if (!isSeq(list)) return;
  const want = commandGrantKey(rule.workspace, rule.command);
  list.items = list.items.filter((item) => {
    if (!isMap(item)) return true;
    const workspace = item.get("workspace");
    const command = item.get("command");
    return !(typeof workspace === "string" && typeof command === "string" &&
      commandGrantKey(workspace, command) === want);
  });
}

/** The list under `key`, created with a comment when missing; a non-list is refused. */
function listNode(doc: Document, configPath: string, key: string, comment: string): YAMLSeq {
  const existing = doc.get(key, true);
  if (existing !== undefined && existing !== null && !isSeq(existing)) {
    throw new ValidationError(
      `Config file ${configPath}: ${key} must be a list; it was not changed`,
    );
  }
  if (isSeq(existing)) return existing;
  doc.set(key, doc.createNode([]));
  const node = doc.get(key, true) as YAMLSeq;
  node.commentBefore = comment;
  return node;
}

/** Add category keys to `command_allowlist`, recording when each new one was added. */
export async function addCategoryRules(
  configPath: string,
  keys: readonly string[],
  at: number,
): Promise<void> {
  await updateConfigDocument(configPath, (doc: Document) => {
    const seq = listNode(
      doc,
      configPath,
      CATEGORY_LIST,
      " Terminal command patterns approved forever from the console",
    );
    const have = new Set(seq.items.map((i) => (isScalar(i) ? i.value : i)));
    const added = keys.filter((k) => !have.has(k));
    if (added.length === 0) return;
    for (const k of added) seq.add(doc.createNode(k));
    let times = doc.get(CATEGORY_TIMES, true);
    if (times !== undefined && times !== null && !isMap(times)) return; // hand-made: leave it
    if (!times) {
      doc.set(CATEGORY_TIMES, doc.createNode({}));
      times = doc.get(CATEGORY_TIMES, true);
      (times as YAMLMap).commentBefore = ` When each ${CATEGORY_LIST} entry was added`;
    }
    for (const k of added) (times as YAMLMap).set(k, isoOf(at));
  });
}

/** Add one exact command to `command_allowlist_commands`, with when it was added. */
export async function addCommandRule(
  configPath: string,
  workspace: string,
  command: string,
  at: number,
): Promise<void> {
  await updateConfigDocument(configPath, (doc: Document) => {
    const seq = listNode(
      doc,
      configPath,
      COMMAND_LIST,
      " Exact terminal commands approved forever, per workspace",
    );
    const want = commandGrantKey(workspace, command);
    const present = seq.items.some((item) => {
      if (!isMap(item)) return false;
      const w = item.get("workspace");
      const c = item.get("command");
      return typeof w === "string" && typeof c === "string" && commandGrantKey(w, c) === want;
    });
    if (present) return;
    seq.add(doc.createNode({ workspace, command: command.trim(), added_at: isoOf(at) }));
  });
}
