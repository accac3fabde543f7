// Word resolution for the command policy: expand the variables a line assigned itself, and turn
// every expansion whose value is not known from the line (`$X` from the environment, `$(…)`, a
// variable set by `read`/`for`/`mapfile`, positionals inside `sh -c`) into SUBST_MARK, so rules
// can tell "computed at run time" from literal text. Invariant: a resolved word holds no
// LIT_DOLLAR and no unexpanded `$name`; anything unknown is SUBST_MARK, never a guess.
import { add, type Scope } from "./command_patterns.ts";
import { LIT_DOLLAR, SUBST_MARK } from "./shell_syntax.ts";
import { isCodeVar, judgeAssignment, judgeComputedName, splitAssignment } from "./code_env.ts";

const NAMED = /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g;
/** Any expansion left after known variables are substituted: ${…}, $name, $1, $@, $?, $$ … */
const UNRESOLVED = /\$(\{[^}]*\}?|[A-Za-z_]\w*|[0-9@*#?!$-])/g;
/** Specials that always expand to a number: a number cannot name a command or climb a path. */
const NUMERIC =
  /\$(\{(RANDOM|SECONDS|LINENO|BASHPID|PPID|UID|EUID|#)\}|[$?#!]|(RANDOM|SECONDS|LINENO|BASHPID|PPID|UID|EUID)(?!\w))/g;
/** Positional parameters: empty in the tool's own `bash -c COMMAND` (it passes no arguments). */
const POSITIONAL = /\$(\{[1-9@*]\}|[1-9@*])/g;

/** Longest variable value or expanded word the policy tracks; longer is "computed". */
const MAX_VALUE = 16_384;

/** Remember a variable's value; one too long to track (a=$b$b doubling) becomes computed. */
export function setVar(scope: Scope, name: string, value: string): void {
  scope.vars.set(name, value.length > MAX_VALUE ? SUBST_MARK : value);
}

/** Resolve one word of a simple command (see the file header). */
export function resolveWord(word: string, scope: Scope): string {
  if (!word.includes("$") && !word.includes(LIT_DOLLAR)) return word;
  let size = word.length;
  let w = word.replace(NAMED, (m, a, b) => {
    const v = scope.vars.get(a ?? b) ?? m;
    size += v.length;
    return size > MAX_VALUE ? "" : v;
  });
  if (size > MAX_VALUE) return SUBST_MARK;
  if (scope.depth === 0) w = w.replace(POSITIONAL, "");
  return w.replace(NUMERIC, "0").replace(UNRESOLVED, SUBST_MARK).replaceAll(LIT_DOLLAR, "$");
}

/**
 * Resolve a word and split it the way the shell splits an expansion's value: on the IFS
 * characters (default space, tab, newline; an IFS set at run time makes the word computed).
 * Assignments are not split. Splitting a quoted "$X" too only ever makes the verdict stricter.
 */
export function resolveWords(word: string, scope: Scope): string[] {
  const w = resolveWord(word, scope);
  const expanded = [...word.matchAll(NAMED)].some((m) => scope.vars.has(m[1] ?? m[2]));
  if (!expanded || /^[A-Za-z_]\w*\+?=/.test(word)) return [w];
  const ifs = scope.vars.get("IFS") ?? " \t\n";
  if (ifs.includes(SUBST_MARK)) return [SUBST_MARK];
  if (ifs === "") return [w];
  const chars = [...ifs].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("");
  const parts = w.split(new RegExp(`[${chars}]+`)).filter((p) => p !== "");
  return parts.length ? parts : [w];
}

const READ_OPTS_WITH_VALUE = new Set(["-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"]);
const MAPFILE_OPTS_WITH_VALUE = new Set(["-d", "-n", "-O", "-s", "-u", "-C", "-c"]);
const isName = (w: string) => /^[A-Za-z_]\w*$/.test(w);

/**
 * Record what a builtin does to variables: `declare`/`export`/`local` assign known values;
 * `read`, `mapfile`, `printf -v`, `getopts`, `for`/`select` and `let` assign values that come
 * from input at run time, so those names become computed. Assigning a variable that points
 * programs at other code asks (lib/approvals/code_env.ts), and so does a `declare -n` reference
 * to one, through which a later plain assignment would set it.
 */
export function trackAssignments(name: string, args: string[], scope: Scope): void {
  const computed = (n: string) => {
    if (!isName(n)) return;
    scope.vars.set(n, SUBST_MARK);
    judgeComputedName(n, scope);
  };
  switch (name) {
    case "declare":
    case "typeset":
    case "local":
    case "export":
    case "readonly": {
      const reference = args.some((a) => /^-[a-zA-Z]*n/.test(a));
      for (const a of args) {
        const m = splitAssignment(a);
        if (!m) continue;
        const value = /^\w+\+=/.test(a) ? (scope.vars.get(m[0]) ?? "") + m[1] : m[1];
        setVar(scope, m[0], value);
        judgeAssignment(m[0], m[1], scope);
        if (reference && (isCodeVar(m[1]) || m[1].includes(SUBST_MARK))) {
          add(scope, "code_env_var");
        }
      }
      return;
    }
    case "read":
      for (let i = 0; i < args.length; i++) {
        if (READ_OPTS_WITH_VALUE.has(args[i])) {
          if (args[i] === "-a") computed(args[i + 1] ?? "");
          i++;
        } else if (!args[i].startsWith("-")) computed(args[i]);
      }
      if (!args.some(isName)) computed("REPLY");
      return;
    case "mapfile":
    case "readarray": {
      const names: string[] = [];
      for (let i = 0; i < args.length; i++) {
        if (MAPFILE_OPTS_WITH_VALUE.has(args[i])) i++;
        else if (!args[i].startsWith("-")) names.push(args[i]);
      }
      computed(names.at(-1) ?? "MAPFILE");
      return;
    }
    case "printf": {
      const v = args.indexOf("-v");
      if (v !== -1) computed(args[v + 1] ?? "");
      return;
    }
    case "getopts":
      computed(args[1] ?? "");
      computed("OPTARG");
      return;
    case "for":
    case "select":
      computed(args[0] ?? "");
      return;
    case "let":
      for (const a of args) computed(a.split(/[-+*/%]?=/)[0]);
      return;
  }
}
