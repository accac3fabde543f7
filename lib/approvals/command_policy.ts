// The command policy of the `terminal` tool: normalize a shell command (escapes, Unicode,
// quoting tricks), read it as pipelines of simple commands, and match it against two tiers.
// Invariants: `hardline` commands are never run, whatever the approvals or skip switch say;
// `dangerous` ones need an approval; each pattern has a stable `pattern_key` (allowlists
// store them) and a human description. Quoted data handed to a command that does not
// execute it (`echo "rm -rf /" > notes.txt`) is data, not a command, and is safe; strings
// handed to something that executes them (sh -c, eval, ssh, su -c, watch, xargs, find -exec,
// $(…), heredocs fed to a shell, string literals of python -c / perl -e) are judged as commands.
import { parseShell, type SimpleCommand } from "./shell_syntax.ts";
import {
  add,
  basename,
  DOWNLOADERS,
  HOME,
  INTERPRETERS,
  KEYWORDS,
  type PatternKey,
  type PatternMatch,
  PATTERNS,
  type PolicyOptions,
  type Scope,
  SHELLS,
  SQL_CLIENTS,
  stringLiterals,
  type Tier,
} from "./command_patterns.ts";
import { checkWriteTarget } from "./command_paths.ts";
import { judgeArgv, unwrap } from "./command_rules.ts";

export { PATTERNS };
export type { PatternKey, PatternMatch, PolicyOptions, Tier };

export interface Classification {
  tier: Tier;
  matches: PatternMatch[];
  /** The command after normalization (what the patterns saw). */
  normalized: string;
}

/**
 * Normalize a command before matching: strip ANSI escapes, NUL and other control bytes,
 * apply Unicode NFKC (fullwidth `ｒｍ` → `rm`), join backslash-newline continuations, fold
 * `$IFS`/`${IFS}` to a space, `$HOME`/`${HOME}` to `~`, and drop empty positional
 * expansions (`$9`, `$@`) that are used to split words invisibly.
 */
export function normalizeCommand(command: string): string {
  // deno-lint-ignore no-control-regex
  const ansiCsi = /\x1b\[[0-?]*[ -/]*[@-~]/g;
  // deno-lint-ignore no-control-regex
  const ansiOsc = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
  // deno-lint-ignore no-control-regex
  const ansiOther = /\x1b[@-_]/g;
  // deno-lint-ignore no-control-regex
  const controls = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u0080-\u009f\u200b-\u200f\u2060-\u2064\ufeff]/g;
  return command
    .replace(ansiCsi, "")
    .replace(ansiOsc, "")
    .replace(ansiOther, "")
    .normalize("NFKC")
    .replace(controls, "")
    .replace(/\r\n?/g, "\n")
    .replace(/\\\n/g, "")
    .replace(/\$\{IFS\}|\$IFS(?![A-Za-z0-9_])/g, " ")
    .replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, HOME)
    .replace(/\$\{?[0-9@*]\}?/g, "");
}

function expandVars(word: string, vars: Map<string, string>): string {
  if (!word.includes("$")) return word;
  return word.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a, b) => vars.get(a ?? b) ?? m);
}

/** Judge a whole command line (or an executed string nested in one). */
function judgeLine(text: string, scope: Scope): void {
  if (scope.depth > 5) return;
  const parsed = parseShell(text);
  const nested = (inner: string) => {
    const child: Scope = {
      ...scope,
      cwd: scope.cwd,
      vars: new Map(scope.vars),
      depth: scope.depth + 1,
    };
    judgeLine(inner, child);
  };
  for (const sub of parsed.substitutions) nested(sub);
  for (const pipeline of parsed.pipelines) {
    const stages: string[] = [];
    for (const cmd of pipeline) stages.push(judgeCommand(cmd, scope, nested));
    for (let i = 0; i < stages.length; i++) {
      const later = stages.slice(i + 1);
      if (!later.some((n) => SHELLS.has(n) || INTERPRETERS.has(n) || n === "source")) continue;
      if (stages[i] === "@download") add(scope, "pipe_download_to_shell");
      if (stages[i] === "@decode") add(scope, "pipe_decoded_to_shell");
    }
  }
  // Substituted downloads executed by a shell: bash <(curl …), sh -c "$(wget -O- …)".
  const runsCode = [...scope.commandNames].some((n) =>
    SHELLS.has(n) || INTERPRETERS.has(n) || n === "eval" || n === "source" || n === "."
  );
  if (runsCode) {
    for (const sub of parsed.substitutions) {
      const first = parseShell(normalizeCommand(sub)).pipelines[0]?.[0]?.argv[0];
      if (first && DOWNLOADERS.has(basename(first))) add(scope, "pipe_download_to_shell");
    }
  }
}

/**
 * Judge one simple command; returns a stage label for pipe analysis
 * (`@download`, `@decode`, or the command name).
 */
function judgeCommand(cmd: SimpleCommand, scope: Scope, nested: (s: string) => void): string {
  let argv = cmd.argv.map((w) => expandVars(w, scope.vars));
  // Leading assignments: alone they define variables for later commands.
  let k = 0;
  while (k < argv.length && /^[A-Za-z_]\w*=/.test(argv[k])) k++;
  if (k === argv.length) {
    for (const a of argv) {
      const eq = a.indexOf("=");
      scope.vars.set(a.slice(0, eq), a.slice(eq + 1));
    }
  }
  argv = argv.slice(k);
  for (const r of cmd.redirects) {
    if (r.op !== "<") checkWriteTarget(expandVars(r.target, scope.vars), scope);
  }
  while (argv.length && KEYWORDS.has(argv[0])) argv = argv.slice(1);
  if (argv.length === 0) return "";
  if (/^\{[^{}\s]*,[^{}\s]*\}$/.test(argv[0])) {
    argv = [...argv[0].slice(1, -1).split(","), ...argv.slice(1)];
  }
  argv = unwrap(argv, scope, nested);
  if (argv.length === 0) return "";
  const name = basename(argv[0]);
  scope.commandNames.add(name);
  const args = argv.slice(1);
  for (const body of cmd.heredocs) {
    if (SHELLS.has(name)) nested(body);
    else if (INTERPRETERS.has(name)) stringLiterals(body).forEach(nested);
  }
  return judgeArgv(name, args, scope, nested);
}

/** Patterns read from the raw text: they do not depend on how the line is split. */
function judgeText(text: string, scope: Scope): void {
  if (
    /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:\s*&/.test(text) ||
    /\b([A-Za-z_][\w.]*)\s*\(\s*\)\s*\{[^}]*\b\1\s*\|\s*\1\b[^}]*&/.test(text) ||
    /\bfunction\s+([A-Za-z_][\w.]*)\s*(\(\s*\))?\s*\{[^}]*\b\1\s*\|\s*\1\b[^}]*&/.test(text) ||
    /\bfork\s+while\s+fork\b/.test(text) || /\bos\.fork\(\)[^\n]*while\s+True/.test(text)
  ) add(scope, "fork_bomb");
  if (
    /169\.254\.169\.254|169\.254\.170\.2\b|\bmetadata\.google\.internal\b|fd00:ec2::254|\b0xa9fea9fe\b|\b2852039166\b|\b0251\.0376\.0251\.0376\b/i
      .test(text)
  ) add(scope, "cloud_metadata");
  const sqlContext = [...scope.commandNames].some((n) => SQL_CLIENTS.has(n) || INTERPRETERS.has(n));
  if (!sqlContext) return;
  if (/\bdrop\s+(table|database|schema)\b/i.test(text)) add(scope, "sql_drop");
  if (/\btruncate\s+table\b/i.test(text) || /\bTRUNCATE\s+[A-Za-z_"`]/.test(text)) {
    add(scope, "sql_truncate");
  }
  for (const m of text.matchAll(/\bdelete\s+from\s+/gi)) {
    const rest = text.slice(m.index! + m[0].length);
    const end = rest.search(/[;"'\n]|$/);
    if (!/\bwhere\b/i.test(rest.slice(0, end))) add(scope, "sql_delete_all");
  }
}

/**
 * Classify a shell command. `hardline` beats `dangerous` beats `safe`; `matches` lists
 * every pattern found (hardline ones first), each once.
 */
export function classifyCommand(command: string, opts: PolicyOptions = {}): Classification {
  const normalized = normalizeCommand(command);
  const scope: Scope = {
    opts,
    found: new Map(),
    vars: new Map(),
    cwd: null,
    depth: 0,
    commandNames: new Set(),
  };
  judgeLine(normalized, scope);
  judgeText(normalized, scope);
  const matches = [...scope.found.values()].sort((a, b) =>
    rank(a.pattern_key) - rank(b.pattern_key)
  );
  const tier: Tier = matches.length === 0
    ? "safe"
    : rank(matches[0].pattern_key) === 0
    ? "hardline"
    : "dangerous";
  return { tier, matches, normalized };
}

const rank = (key: string) => PATTERNS[key as PatternKey]?.tier === "hardline" ? 0 : 1;

/** The dangerous pattern keys, for validating allowlists. */
export function isDangerousPatternKey(key: string): boolean {
  return PATTERNS[key as PatternKey]?.tier === "dangerous";
}
