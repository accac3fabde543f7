// The command policy of the `terminal` tool: normalize a shell command (escapes, Unicode,
// quoting tricks), read it as pipelines of simple commands, and match it against two tiers.
// Invariants: `hardline` commands are never run, whatever the approvals or skip switch say;
// `dangerous` ones need an approval; each pattern has a stable `pattern_key` (allowlists
// store them) and a human description. Quoted data handed to a command that does not
// execute it (`echo "rm -rf /" > notes.txt`) is data, not a command, and is safe; strings
// handed to something that executes them (sh -c, eval, ssh, su -c, watch, xargs, find -exec,
// $(…), heredocs fed to a shell, string literals of python -c / perl -e) are judged as commands.
// What cannot be resolved exactly asks: a computed command name, computed code for a shell or
// interpreter, computed arguments of a command that deletes or overwrites, and inline
// interpreter code that is not plainly harmless (lib/approvals/command_code.ts).
import { parseShell, type SimpleCommand, SUBST_MARK } from "./shell_syntax.ts";
import {
  add,
  basename,
  DOWNLOADERS,
  HOME,
  INTERPRETERS,
  isComputed,
  KEYWORDS,
  type PatternKey,
  type PatternMatch,
  PATTERNS,
  type PolicyOptions,
  type Scope,
  SHELLS,
  SQL_CLIENTS,
  type Tier,
} from "./command_patterns.ts";
import { checkWriteTarget, wasWritten } from "./command_paths.ts";
import { judgeArgv, STDIN_CODE, unwrap } from "./command_rules.ts";
import { judgeInlineCode } from "./command_code.ts";
import { resolveWord, resolveWords, setVar, trackAssignments } from "./command_words.ts";
import { judgeAssignment, PATH_MARK, splitAssignment } from "./code_env.ts";
import { checkRunFile, startDirs } from "./changed_files.ts";
import { diskReader, prefetchedView } from "./workspace_view.ts";

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
 * `$IFS`/`${IFS}` to a space and `$HOME`/`${HOME}` to `~`. Other expansions are resolved per
 * word (lib/approvals/command_words.ts): positionals are empty at the top level (`r$@m` → `rm`)
 * and computed inside `sh -c`, because quoting decides which shell expands them.
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
    .replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, HOME);
}

/** Judge a whole command line (or an executed string nested in one). */
function judgeLine(text: string, scope: Scope): void {
  if (scope.depth > 5) return;
  const parsed = parseShell(text);
  const nested = (inner: string) => {
    // Code built at run time cannot be read: ask, whatever its literal parts say.
    if (isComputed(inner)) {
      add(scope, "computed_code");
      if (inner.trim() === SUBST_MARK) return;
    }
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
      // A shell or interpreter reading its code from the pipe runs what earlier stages print.
      if (i > 0 && stages[i].endsWith(STDIN_CODE)) add(scope, "computed_code");
      const later = stages.slice(i + 1).map((n) => n.replace(STDIN_CODE, ""));
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
  let argv = cmd.argv.flatMap((w) => resolveWords(w, scope));
  // Leading assignments: alone they define variables for later commands; either way one that
  // points programs at other code (BASH_ENV, PATH, LD_PRELOAD, …) asks.
  let k = 0;
  while (k < argv.length && splitAssignment(argv[k])) k++;
  for (const a of argv.slice(0, k)) {
    const [name, value] = splitAssignment(a)!;
    judgeAssignment(name, value, scope);
    if (k < argv.length) continue;
    const appended = /^\w+\+=/.test(a) ? (scope.vars.get(name) ?? "") + value : value;
    setVar(scope, name, appended);
    // Arithmetic evaluates a variable's text, running $(…) in it: x='a[$(cmd)]'; $((x)).
    if (/\$\(|`/.test(value)) parseShell(value).substitutions.forEach(nested);
  }
  argv = argv.slice(k);
  for (const r of cmd.redirects) {
    if (r.op === "<") continue;
    const target = resolveWord(r.target, scope);
    if (isComputed(target)) add(scope, "computed_argument");
    else checkWriteTarget(target, scope);
  }
  while (argv.length && KEYWORDS.has(argv[0])) argv = argv.slice(1);
  if (argv.length === 0) return "";
  if (/^\{[^{}\s]*,[^{}\s]*\}$/.test(argv[0])) {
    argv = [...argv[0].slice(1, -1).split(","), ...argv.slice(1)];
  }
  argv = unwrap(argv, scope, nested);
  if (argv.length === 0) return "";
  if (argv[0].includes("/")) {
    // A program this same line wrote (echo … > run; ./run) is code the policy never saw.
    if (wasWritten(argv[0], scope)) add(scope, "computed_command");
    checkRunFile(argv[0], scope);
  }
  // A glob in command position (/bin/r?, /???/rm) picks its program at run time.
  if (/[*?]/.test(argv[0]) || /\[.*\]/.test(argv[0])) {
    add(scope, "computed_command");
    return "@computed";
  }
  const name = canonicalName(basename(argv[0]));
  scope.commandNames.add(name);
  const args = argv.slice(1);
  trackAssignments(name, args, scope);
  const hereStrings = cmd.hereStrings.map((w) => resolveWord(w, scope));
  for (const body of [...cmd.heredocs, ...hereStrings]) {
    if (SHELLS.has(name) || STDIN_SHELLS.has(name)) nested(body);
    else if (INTERPRETERS.has(name)) judgeInlineCode(name, body, scope, nested);
  }
  const label = judgeArgv(name, args, scope, nested);
  // Code runners reading a computed input (sh < <(…), bash /dev/fd/3 3< <(…)) run unknown code.
  const runsCode = SHELLS.has(name) || INTERPRETERS.has(name) || name === "source" || name === ".";
  if (
    runsCode && cmd.redirects.some((r) => r.op === "<" && isComputed(resolveWord(r.target, scope)))
  ) {
    add(scope, "computed_code");
  }
  if (label.endsWith(STDIN_CODE)) {
    // bash < x.sh, python3 < p.py: the redirected file is the code that runs.
    for (const r of cmd.redirects) {
      const target = r.op === "<" ? resolveWord(r.target, scope) : "";
      if (target && !isComputed(target) && target !== "/dev/null") checkRunFile(target, scope);
    }
  }
  if (label.endsWith(STDIN_CODE) && (cmd.heredocs.length || hereStrings.length)) return name;
  return label;
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
    written: new Set(),
    dirs: startDirs(opts),
    writes: new Set(),
  };
  // Twice: loops, functions and traps run parts of a line after what follows them, so the
  // second reading knows every directory the line enters and every file it writes.
  for (let pass = 0; pass < 2; pass++) {
    scope.vars = new Map([["PATH", PATH_MARK]]);
    scope.cwd = null;
    judgeLine(normalized, scope);
  }
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

/** Rounds of fetching a workspace view; what is still missing after them stays unknown (asks). */
const VIEW_ROUNDS = 10;

/**
 * Classify a command the way the terminal tool runs it: in `opts.workspace`, from `opts.cwd`,
 * judging the files it would run against the disk (files changed at or after
 * `opts.changedSince` count as the agent's). The policy itself is synchronous, so what it needs
 * of the disk is fetched asynchronously in rounds (lib/approvals/workspace_view.ts) and the
 * command judged again until nothing is missing. Without a workspace it is classifyCommand().
 */
export async function classifyCommandInWorkspace(
  command: string,
  opts: PolicyOptions,
): Promise<Classification> {
  if (!opts.workspace || opts.files) return classifyCommand(command, opts);
  const root = await Deno.realPath(opts.workspace).catch(() => null);
  if (!root) return classifyCommand(command, opts);
  const files = prefetchedView(diskReader(root));
  const judged = { ...opts, workspace: root, files };
  let verdict = classifyCommand(command, judged);
  for (let round = 0; round < VIEW_ROUNDS && files.missed(); round++) {
    await files.fetchMissed();
    verdict = classifyCommand(command, judged);
  }
  return verdict;
}

/** Versioned interpreter names (python3.12, perl5.36, php8.2) judged as the interpreter. */
function canonicalName(name: string): string {
  const m = name.match(/^(python|pypy|perl|ruby|php|lua|node)(\d[\d.]*)$/);
  if (!m) return name;
  return m[1] === "pypy"
    ? "python3"
    : m[1] === "python" && m[2].startsWith("2")
    ? "python2"
    : m[1] === "python"
    ? "python3"
    : m[1];
}

/** Not shells, but they run the shell commands given on stdin (or sourced from it). */
const STDIN_SHELLS = new Set(["source", ".", "at", "batch"]);

const rank = (key: string) => PATTERNS[key as PatternKey]?.tier === "hardline" ? 0 : 1;

/** The dangerous pattern keys, for validating allowlists. */
export function isDangerousPatternKey(key: string): boolean {
  return PATTERNS[key as PatternKey]?.tier === "dangerous";
}
