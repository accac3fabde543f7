// Environment variables that make programs load or run other code: BASH_ENV and ENV (a shell
// sources the file), PYTHONPATH and NODE_OPTIONS (imports come from elsewhere), LD_PRELOAD (every
// program loads a library), git's GIT_* (hooks, config, ssh), HOME (start-up files), PATH (which
// program a name runs) and commands kept in variables (PAGER, EDITOR, LESSOPEN, …).
// Invariant: an assignment of one of these asks however it is spelled — `X=… cmd`, a bare `X=…`,
// `export`/`declare -x`/`typeset`, `env X=…`, `X+=…`, `read X`, `declare -n r=X` — unless its value
// is plainly harmless (a PATH of system directories, a pager such as `less -R`).
import { add, INTERPRETERS, type Scope, SHELLS, words } from "./command_patterns.ts";
import { SUBST_MARK } from "./shell_syntax.ts";

/** Names that always ask when assigned. */
const CODE_VARS = words(
  "BASH_ENV ENV PROMPT_COMMAND SHELLOPTS BASHOPTS PS0 PS1 PS2 PS4 ZDOTDIR INPUTRC HOME " +
    "XDG_CONFIG_HOME BASH_LOADABLES_PATH GCONV_PATH " +
    "PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONUSERBASE PYTHONEXECUTABLE PYTHONBREAKPOINT " +
    "PYTHONPLATLIBDIR NODE_OPTIONS NODE_PATH NODE_REPL_EXTERNAL_MODULE PERL5OPT PERL5LIB " +
    "PERLLIB PERL5DB RUBYOPT RUBYLIB BUNDLE_GEMFILE GEM_HOME GEM_PATH " +
    "MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKEFILES LESSOPEN LESSCLOSE SSH_ASKPASS SUDO_ASKPASS " +
    "JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS CLASSPATH RUSTC_WRAPPER RUSTC " +
    "RUSTC_WORKSPACE_WRAPPER GOFLAGS CONFIG_SITE",
);
/** Prefixes of families of such names (the dynamic linker's, git's, npm's and yarn's config). */
const CODE_PREFIXES = ["LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "YARN_", "PNPM_"];
/** Variables holding a command line that a program runs (a pager, an editor, a compiler). */
const COMMAND_VARS = words(
  "PAGER MANPAGER GIT_PAGER EDITOR VISUAL GIT_EDITOR GIT_SEQUENCE_EDITOR BROWSER CC CXX CPP",
);
/** git variables that only name an identity, a date or a switch. */
const GIT_DATA = words(
  "GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL " +
    "GIT_COMMITTER_DATE GIT_TERMINAL_PROMPT GIT_OPTIONAL_LOCKS GIT_FLUSH GIT_MERGE_AUTOEDIT " +
    "GIT_ADVICE GIT_LITERAL_PATHSPECS GIT_GLOB_PATHSPECS GIT_NOGLOB_PATHSPECS " +
    "GIT_ICASE_PATHSPECS GIT_PROGRESS_DELAY",
);
/** Directories whose programs the agent cannot change (read-only in the sandbox). */
const SYSTEM_BIN = /^\/(usr|bin|sbin|opt)(\/[\w.+-]+)*\/?$/;
const systemDir = (p: string) => SYSTEM_BIN.test(p) && !/\/\.\.?(\/|$)/.test(p);

/**
 * What `$PATH` expands to while judging (seeded before a line is read): computed like any
 * unknown value, but recognisable, so `PATH=/usr/local/go/bin:$PATH` can be told from
 * `PATH=.:$PATH`.
 */
export const PATH_MARK = `${SUBST_MARK}PATH${SUBST_MARK}`;

/** Whether assigning `name` can make a program load or run other code. */
export function isCodeVar(name: string): boolean {
  const upper = name.toUpperCase();
  if (CODE_VARS.has(name) || COMMAND_VARS.has(name) || name === "PATH") return true;
  if (GIT_DATA.has(name)) return false;
  // npm and yarn read their settings case-insensitively; the others are upper case only.
  return CODE_PREFIXES.some((p) => (/^(NPM|YARN|PNPM)_/.test(p) ? upper : name).startsWith(p));
}

/** `less -R`, `cat`, `vim`, `/usr/bin/gcc -O2`: one program that is not a shell or interpreter. */
function plainProgram(value: string): boolean {
  // Empty: no pager, no editor.
  if (value.trim() === "") return true;
  const [prog, ...rest] = value.trim().split(/\s+/);
  if (!prog || !/^[\w.+-]+$/.test(prog) && !systemDir(prog.replace(/\/[^/]+$/, ""))) {
    return false;
  }
  const name = prog.slice(prog.lastIndexOf("/") + 1);
  if (SHELLS.has(name) || INTERPRETERS.has(name) || name === "env" || name === "xargs") {
    return false;
  }
  return rest.every((a) => /^-[\w=,.+-]*$/.test(a));
}

/** A PATH made only of system directories and the previous `$PATH`. */
function systemPath(value: string): boolean {
  return value.split(":").every((entry) => entry === PATH_MARK || systemDir(entry));
}

/** Judge one assignment `name=value` (or `name+=value`); asks when it points at other code. */
export function judgeAssignment(name: string, value: string, scope: Scope): void {
  if (!isCodeVar(name)) return;
  if (COMMAND_VARS.has(name) && !value.includes(SUBST_MARK) && plainProgram(value)) return;
  if (name === "PATH" && systemPath(value)) return;
  if (/^GIT_TRACE\w*$/.test(name) && /^(0|1|2|true|false)?$/.test(value)) return;
  // ENV is also a common name for a deployment (ENV=production): only a path is a start-up file.
  if (name === "ENV" && /^[\w-]+$/.test(value)) return;
  add(scope, "code_env_var");
}

/** A name assigned from input at run time (`read X`, `for X in`, `printf -v X`): asks if code. */
export function judgeComputedName(name: string, scope: Scope): void {
  if (isCodeVar(name)) add(scope, "code_env_var");
}

/** `NAME=value` or `NAME+=value` → [name, value], else null. */
export function splitAssignment(word: string): [string, string] | null {
  const m = word.match(/^([A-Za-z_]\w*)\+?=(.*)$/s);
  return m ? [m[1], m[2]] : null;
}
