// Browser-safe: imports nothing from Deno or the database.
// The composer's slash commands: the registry, the parser that turns a draft into a command,
// and the matcher behind the autocomplete menu. Invariants: only a draft whose first line is
// `/name` or `/name args` is a command; a name not in the registry is NOT a command (the text
// goes to the agent as written); matching is case-insensitive and never reorders ties.
import { t } from "../i18n/t.ts";

/** Where a command's argument suggestions come from (loaded lazily by the menu). */
export type ArgSource = "models" | "workspaces" | "skills" | "prompts" | "personalities";

export interface SlashCommand {
  /** The name typed after `/` (lowercase, `[a-z][a-z0-9-]*`). */
  name: string;
  /** Other names that run the same command (`/rename` → title). */
  aliases?: readonly string[];
  /** Usage of the argument, shown in the menu and /help (`<text>` required, `[id]` optional). */
  usage?: string;
  /** The command cannot run without an argument (picking it completes `/name ` instead). */
  argRequired?: boolean;
  /** One line for the menu and /help (the registry's entries read it from the `slash` catalog). */
  summary: string;
  /** Fixed argument choices (`/theme light|dark|system`). */
  choices?: readonly string[];
  /** Argument suggestions fetched when the menu reaches the argument. */
  argSource?: ArgSource;
  /** Sent to the agent as the message itself (the engine understands it), not run here. */
  agent?: boolean;
}

/** `c` with its `summary` read from the catalog (the key it names) each time it is shown. */
function translated(c: SlashCommand): SlashCommand {
  const key = c.summary;
  return Object.defineProperty({ ...c }, "summary", { enumerable: true, get: () => t(key) });
}

/**
 * Every command the composer knows, in the order /help and the empty menu list them; each
 * `summary` is written as its catalog key (lib/i18n/messages/<locale>/slash.json).
 */
export const SLASH_COMMANDS: readonly SlashCommand[] = ([
  { name: "help", summary: "slash.help" },
  { name: "new", summary: "slash.new" },
  { name: "clear", summary: "slash.clear" },
  { name: "undo", summary: "slash.undo" },
  { name: "retry", summary: "slash.retry" },
  { name: "stop", summary: "slash.stop" },
  { name: "queue", usage: "[text]", summary: "slash.queue" },
  { name: "steer", usage: "[text]", summary: "slash.steer" },
  {
    name: "interrupt",
    usage: "[text]",
    summary: "slash.interrupt",
  },
  {
    name: "btw",
    usage: "<question>",
    argRequired: true,
    summary: "slash.btw",
  },
  {
    name: "background",
    aliases: ["bg"],
    usage: "<task>",
    argRequired: true,
    summary: "slash.background",
  },
  {
    name: "compress",
    usage: "[focus]",
    summary: "slash.compress",
  },
  {
    name: "title",
    aliases: ["rename"],
    usage: "[text]",
    summary: "slash.title",
  },
  {
    name: "reasoning",
    usage: "[none|low|medium|high|default]",
    choices: ["none", "low", "medium", "high", "default"],
    summary: "slash.reasoning",
  },
  { name: "model", usage: "[id]", argSource: "models", summary: "slash.model" },
  {
    name: "workspace",
    aliases: ["cd"],
    usage: "[path]",
    argSource: "workspaces",
    summary: "slash.workspace",
  },
  {
    name: "use",
    usage: "<skill>",
    argRequired: true,
    argSource: "skills",
    agent: true,
    summary: "slash.use",
  },
  {
    name: "goal",
    usage: "[text|status|pause|resume|clear]",
    summary: "slash.goal",
  },
  {
    name: "prompt",
    usage: "[name]",
    argSource: "prompts",
    summary: "slash.prompt",
  },
  {
    name: "personality",
    usage: "[name]",
    argSource: "personalities",
    summary: "slash.personality",
  },
  { name: "usage", aliases: ["cost"], summary: "slash.usage" },
  {
    name: "theme",
    usage: "[light|dark|system]",
    choices: ["light", "dark", "system"],
    summary: "slash.theme",
  },
  { name: "yolo", summary: "slash.yolo" },
  { name: "network", summary: "slash.network" },
  { name: "reload-mcp", summary: "slash.reloadMcp" },
] as SlashCommand[]).map(translated);

const NAME_RE = /^[a-z][a-z0-9-]*$/;
const COMMAND_RE = /^\/([A-Za-z][A-Za-z0-9-]*)(?:[ \t]+([\s\S]*))?$/;

/** The registry entry for `name` or one of its aliases (case-insensitive), if any. */
export function findCommand(
  name: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): SlashCommand | undefined {
  const n = name.toLowerCase();
  return commands.find((c) => c.name === n || c.aliases?.includes(n));
}

/** A draft that names a registered command. */
export interface ParsedCommand {
  command: SlashCommand;
  /** What was typed after the name, trimmed ("" when nothing). */
  arg: string;
}

/**
 * The command a draft runs, or null when the draft is a message for the agent: it does not
 * start with `/name`, or the name is not registered (`/usr/bin is slow` stays a message).
 * The argument is everything after the name (it may span lines: `/title` takes the rest).
 */
export function parseSlashCommand(
  draft: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): ParsedCommand | null {
  const text = draft.replace(/^\s+/, "").replace(/\s+$/, "");
  const m = COMMAND_RE.exec(text);
  if (!m) return null;
  const command = findCommand(m[1], commands);
  if (!command) return null;
  return { command, arg: (m[2] ?? "").trim() };
}

/**
 * The usage hint when a command that needs an argument has none (`/use` alone), else null:
 * the composer holds such a draft instead of sending it to the model.
 */
export function missingArgumentHint(parsed: ParsedCommand): string | null {
  const c = parsed.command;
  if (!c.argRequired || parsed.arg) return null;
  const command = `/${c.name}`;
  return c.usage
    ? t("slash.needsArgument", { command, usage: c.usage, summary: c.summary })
    : t("slash.needsAnArgument", {
      command,
      summary: c.summary,
      placeholder: `<${t("slash.argument")}>`,
    });
}

/** What the autocomplete menu should offer for the draft. */
export type SlashQuery =
  /** Typing the name: `/ti` → query "ti". */
  | { phase: "name"; query: string }
  /** Typing the argument of a command that has suggestions: `/theme l` → query "l". */
  | { phase: "arg"; command: SlashCommand; query: string };

/**
 * The menu's state for `draft`, or null when no menu belongs there: not a `/` draft, more
 * than one line, or a command whose argument has nothing to suggest (`/title …`).
 */
export function slashQuery(
  draft: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): SlashQuery | null {
  if (!draft.startsWith("/") || draft.includes("\n")) return null;
  const space = draft.search(/[ \t]/);
  if (space < 0) {
    const query = draft.slice(1);
    return query === "" || /^[A-Za-z][A-Za-z0-9-]*$/.test(query)
      ? { phase: "name", query: query.toLowerCase() }
      : null;
  }
  const command = findCommand(draft.slice(1, space), commands);
  if (!command || (!command.choices && !command.argSource)) return null;
  const query = draft.slice(space).trimStart();
  // Suggestions are single words: once a blank follows the argument, the person is writing on.
  if (/\S\s/.test(query)) return null;
  return { phase: "arg", command, query };
}

/**
 * Commands matching a partial name: names starting with it first, then aliases starting with
 * it, then names containing it; registry order within each rank. "" lists them all.
 */
export function matchCommands(
  query: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): SlashCommand[] {
  const q = query.toLowerCase();
  if (q === "") return [...commands];
  const rank = (c: SlashCommand): number =>
    c.name.startsWith(q)
      ? 0
      : c.aliases?.some((a) => a.startsWith(q))
      ? 1
      : c.name.includes(q)
      ? 2
      : -1;
  return commands
    .map((c, i) => ({ c, i, r: rank(c) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.c);
}

/**
 * Argument suggestions matching what was typed: prefix matches first, then substring
 * matches, each in the given order; case-insensitive. At most `limit` results.
 */
export function matchChoices(query: string, choices: readonly string[], limit = 50): string[] {
  const q = query.trim().toLowerCase();
  if (q === "") return choices.slice(0, limit);
  const starts: string[] = [];
  const contains: string[] = [];
  for (const c of choices) {
    const l = c.toLowerCase();
    if (l.startsWith(q)) starts.push(c);
    else if (l.includes(q)) contains.push(c);
  }
  return [...starts, ...contains].slice(0, limit);
}

/** `/title <text>`: how a command is written in the menu and /help. */
export function commandSignature(c: SlashCommand): string {
  return c.usage ? `/${c.name} ${c.usage}` : `/${c.name}`;
}

/** The draft a picked command leaves in the textarea (a trailing space when it takes an argument). */
export function completeCommand(c: SlashCommand): string {
  return c.usage ? `/${c.name} ` : `/${c.name}`;
}

/** True for a well-formed command name (registry entries are checked against it in tests). */
export function isCommandName(name: string): boolean {
  return NAME_RE.test(name);
}
