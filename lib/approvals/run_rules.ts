// Commands that run workspace code the line does not name: build and package tools run their
// recipe (a Makefile, package.json scripts, deno.json tasks, setup.py), and Python imports from the
// directory it puts first on `sys.path` before the standard library. Each asks when that code
// changed since the person's last approval, is written by the line itself, or cannot be checked.
// Invariants: only recipe files and standard-module shadows are judged, not everything a build
// compiles or a test runner loads (the sandbox bounds that); what cannot be resolved asks.
import { add, basename, type PatternKey, type Scope, words } from "./command_patterns.ts";
import {
  changedOrUnknown,
  checkRunFile,
  fold,
  foldRel,
  noteWrite,
  placeOf,
  relJoin,
  relParent,
  writesIn,
  writtenHere,
} from "./changed_files.ts";
import { PYTHON_STDLIB } from "./python_modules.ts";

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];
/** Recipe files per build tool (read in the directory it runs in). */
const RECIPES: Record<string, string[]> = {
  make: MAKEFILES,
  gmake: MAKEFILES,
  bmake: MAKEFILES,
  just: ["justfile", "Justfile", ".justfile"],
  rake: ["Rakefile", "rakefile", "Rakefile.rb"],
  ninja: ["build.ninja"],
  cmake: ["CMakeLists.txt"],
};
/** What npm, yarn, pnpm and bun read before running a script or an install's lifecycle scripts. */
const PACKAGE_FILES = [
  "package.json",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "pnpm-workspace.yaml",
  "bunfig.toml",
  ".pnp.cjs",
];
/** Package-manager subcommands that run no script of the project. */
const PM_SAFE: Record<string, Set<string>> = {
  npm: words(
    "ls list ll la view info show v outdated config c get help help-search search s se find " +
      "whoami ping prefix root bin docs home bugs repo fund explain why query doctor cache",
  ),
  yarn: words("info list why config help outdated licenses owner cache dir bin"),
  pnpm: words("list ls ll why outdated config help view info root bin store licenses"),
  bun: words("pm"),
};
/** bun's own subcommands (anything else is a file to run). */
const BUN_SUBCOMMANDS = words(
  "run install i add a remove rm update upgrade test x create pm build link unlink init " +
    "exec publish patch outdated",
);

/** A word relative to `dir` (a word too), unless it is absolute or home-based. */
const under = (dir: string, word: string) =>
  word.startsWith("/") || word.startsWith("~") || dir === "." ? word : `${dir}/${word}`;

/**
 * Ask `key` when one of `names` in the directory `dirWord` (and with `ancestors`, in every
 * directory above it up to the workspace root) changed, is written by this line, or cannot be
 * checked. A directory outside the workspace asks unless it is a read-only system tree.
 */
function checkRecipes(
  dirWord: string,
  names: string[],
  scope: Scope,
  ancestors: boolean,
  key: PatternKey = "run_changed_build_file",
): void {
  if (!scope.opts.workspace) return;
  const place = placeOf(dirWord, scope);
  if (place.kind === "system") return;
  if (place.kind !== "workspace") return add(scope, key);
  // Every candidate is looked at (no early return): a prefetched view learns them in one round.
  let ask = false;
  for (const rel of place.rels) {
    let dir = foldRel(rel);
    if (dir === null) ask = true;
    for (; dir !== null; dir = ancestors ? relParent(dir) : null) {
      for (const name of names) {
        const path = relJoin(dir, name);
        if (writtenHere(path, scope)) ask = true;
        if (scope.opts.files && changedOrUnknown(path, scope)) ask = true;
      }
    }
  }
  if (ask) add(scope, key);
}

/** make and its kin: `-C DIR` and `-f FILE` pick the recipe; otherwise the directory's own. */
function judgeBuildTool(name: string, args: string[], scope: Scope): void {
  let dir = ".";
  const recipes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const long = a.match(/^--(directory|file|makefile|justfile|working-directory)=(.*)$/s);
    if (a === "-C" || a === "--directory" || a === "-d" && name === "just") {
      dir = under(dir, args[++i] ?? "");
    } else if (long?.[1] === "directory" || long?.[1] === "working-directory") {
      dir = under(dir, long[2]);
    } else if (/^-C./.test(a) && name !== "cmake") dir = under(dir, a.slice(2));
    else if (["-f", "--file", "--makefile", "--justfile"].includes(a)) {
      recipes.push(args[++i] ?? "");
    } else if (long) recipes.push(long[2]);
    else if (/^-f./.test(a) && name !== "cmake") recipes.push(a.slice(2));
    else if (name === "cmake" && (a === "-S" || a === "-P")) {
      // cmake -S SOURCE_DIR reads its CMakeLists.txt; -P SCRIPT runs a script.
      if (a === "-S") dir = under(dir, args[++i] ?? "");
      else checkRunFile(args[++i] ?? "", scope, "run_changed_build_file");
    }
  }
  if (recipes.length) {
    for (const r of recipes) checkRunFile(under(dir, r), scope, "run_changed_build_file");
  } else checkRecipes(dir, RECIPES[name], scope, false);
}

/** npm, yarn, pnpm, bun: a subcommand that runs scripts asks when the package files changed. */
function judgePackageManager(name: string, args: string[], scope: Scope): void {
  let dir = ".";
  let sub: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const long = a.match(/^--(prefix|cwd|dir)=(.*)$/s);
    if (["--prefix", "--cwd", "--dir", "-C"].includes(a)) dir = under(dir, args[++i] ?? "");
    else if (long) dir = under(dir, long[2]);
    else if (!a.startsWith("-")) {
      sub = a;
      break;
    }
  }
  const bare = sub === undefined;
  if (bare ? name !== "yarn" : PM_SAFE[name]?.has(sub!)) return;
  // These edit package.json: a script run later in the line is the new one.
  if (name === "npm" && (sub === "pkg" || sub === "init" || sub === "set-script")) {
    noteWrite(under(dir, "package.json"), scope);
  }
  checkRecipes(dir, PACKAGE_FILES, scope, true);
}

/** `NAME.py`, `NAME.pyc`, `NAME.cpython-311-x86_64-linux-gnu.so` or a directory `NAME` → NAME. */
const moduleOf = (entry: string) =>
  entry.match(/^([A-Za-z_]\w*)(\.py|\.pyc|\.[\w-]+\.so|\.so)?$/)?.slice(1, 3) ?? null;

/** Whether a path this line writes would shadow a standard module wherever Python runs. */
function shadowsStdlib(path: string): boolean {
  const name = basename(path);
  if (name === "__init__.py") return PYTHON_STDLIB.has(basename(path.slice(0, -12)));
  const m = moduleOf(name);
  return !!m && m[1] !== undefined && PYTHON_STDLIB.has(m[0]);
}

/**
 * Python puts `dirWord` (the script's directory, or the working directory for -c, -m and stdin)
 * first on `sys.path`: a changed `json.py` or `logging/__init__.py` there is what `import json`
 * or `import logging` loads, in the program or in the standard library itself.
 */
function judgePythonPath(dirWord: string, scope: Scope): void {
  const key = "python_shadowed_module";
  if ([...scope.writes].some(shadowsStdlib)) return add(scope, key);
  const place = placeOf(dirWord, scope);
  if (place.kind === "unknown") return add(scope, key);
  const files = scope.opts.files;
  if (place.kind !== "workspace" || !files) return;
  let ask = false;
  for (const rel of place.rels) {
    if (writesIn(fold(`${scope.opts.workspace}/${rel}`), scope) === "any") ask = true;
    const names = files.list(rel);
    if (names === undefined) ask = true;
    for (const entry of names ?? []) {
      const m = moduleOf(entry);
      if (!m || !PYTHON_STDLIB.has(m[0])) continue;
      const path = relJoin(rel, entry);
      // A module file, or a package: a directory with an __init__.py.
      const file = m[1] !== undefined ? path : relJoin(path, "__init__.py");
      const st = files.stat(file);
      if (st === undefined || (st !== null && changedOrUnknown(file, scope))) ask = true;
    }
  }
  if (ask) add(scope, key);
}

/** `python -m pkg.mod`: the module's own file, when the working directory holds it. */
function checkLocalModule(module: string, scope: Scope): void {
  const files = scope.opts.files;
  const place = placeOf(".", scope);
  if (!files || place.kind !== "workspace" || !/^[\w.]+$/.test(module)) return;
  const path = module.replaceAll(".", "/");
  let ask = false;
  for (const rel of place.rels) {
    for (const candidate of [`${path}.py`, `${path}/__main__.py`, `${path}/__init__.py`]) {
      const file = relJoin(rel, candidate);
      const st = files.stat(file);
      if (writtenHere(file, scope) || st === undefined || st && changedOrUnknown(file, scope)) {
        ask = true;
      }
    }
  }
  if (ask) add(scope, "run_changed_script");
}

/** Python with its script (or -m module, or none for -c and stdin). */
export function judgePython(
  script: string | undefined,
  module: string | undefined,
  scope: Scope,
): void {
  if (module !== undefined) checkLocalModule(module, scope);
  const inFile = script !== undefined && module === undefined &&
    !/^(-|\/dev\/|\/proc\/)/.test(script);
  const dir = inFile && script!.includes("/") ? script!.replace(/\/[^/]*$/, "") || "/" : ".";
  judgePythonPath(dir, scope);
}

/**
 * perl -I DIR -MMod / ruby -I DIR -rmod: the module is loaded from DIR when it is there, so a
 * changed one there runs (like PERL5LIB or RUBYLIB, which ask as assignments).
 */
export function judgeIncludePath(name: "perl" | "ruby", args: string[], scope: Scope): void {
  const dirs: string[] = [];
  const modules: string[] = [];
  const load = name === "perl" ? /^-[Mm]-?(.*)$/s : /^-r(.*)$/s;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-I") dirs.push(args[++i] ?? "");
    else if (a.startsWith("-I")) dirs.push(a.slice(2));
    else if (load.test(a)) {
      const m = a.match(load)![1] || args[++i] || "";
      modules.push(m.replace(/^-/, "").split(/[=\s]/)[0]);
    }
  }
  const files = scope.opts.files;
  for (const dir of dirs) {
    for (const m of modules) {
      const rel = name === "perl"
        ? `${m.replaceAll("::", "/")}.pm`
        : `${m.replace(/\.rb$/, "")}.rb`;
      const file = under(dir, rel);
      const place = placeOf(file, scope);
      if (place.kind === "system") continue;
      // A module that is not in DIR comes from the interpreter's own library.
      if (place.kind === "workspace" && files && place.rels.every((r) => files.stat(r) === null)) {
        continue;
      }
      if (place.kind === "workspace" && !files) continue;
      checkRunFile(file, scope);
    }
  }
}

/** deno task (deno.json, deno.jsonc or package.json) and deno's --config file. */
function judgeDeno(args: string[], scope: Scope): void {
  let dir = ".";
  let sub: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--cwd") dir = under(dir, args[++i] ?? "");
    else if (a.startsWith("--cwd=")) dir = under(dir, a.slice(6));
    else if (a === "-c" || a === "--config") {
      checkRunFile(args[++i] ?? "", scope, "run_changed_build_file");
    } else if (a.startsWith("--config=")) {
      checkRunFile(a.slice(9), scope, "run_changed_build_file");
    } else if (!a.startsWith("-") && sub === undefined) sub = a;
  }
  if (sub === "task") {
    checkRecipes(dir, ["deno.json", "deno.jsonc", "package.json"], scope, true);
  }
}

/** pip install of a local project runs its setup.py or build backend. */
function judgePip(args: string[], scope: Scope): void {
  if (!args.includes("install")) return;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let target: string | undefined;
    if (a === "-e" || a === "--editable") target = args[++i];
    else if (a.startsWith("--editable=")) target = a.slice(11);
    else if (/^-r$|^--requirement$|^-c$|^--constraint$/.test(a)) i++;
    else if (a === "." || a === ".." || /^(\.{0,2}\/|~\/)/.test(a)) target = a;
    if (target !== undefined) {
      checkRecipes(target, ["setup.py", "pyproject.toml", "setup.cfg"], scope, false);
    }
  }
}

/**
 * Judge what a command runs besides its operands: a build tool's recipe, a package manager's
 * scripts, deno tasks, a local pip install. Returns true when `bun` was a package command (not
 * a script to run).
 */
export function judgeRecipeRuns(name: string, args: string[], scope: Scope): boolean {
  if (Object.hasOwn(RECIPES, name)) judgeBuildTool(name, args, scope);
  else if (name === "npm" || name === "yarn" || name === "pnpm") {
    judgePackageManager(name, args, scope);
  } else if (name === "deno") judgeDeno(args, scope);
  else if (/^pip[\d.]*$/.test(name)) judgePip(args, scope);
  else if (name === "bun") {
    const sub = args.find((a) => !a.startsWith("-"));
    if (sub === undefined || !BUN_SUBCOMMANDS.has(sub)) return false;
    judgePackageManager(name, args, scope);
    // bun run FILE runs that file.
    const target = args[args.indexOf(sub) + 1];
    if (sub === "run" && target !== undefined && /[./]/.test(target)) {
      checkRunFile(target, scope);
    }
    return true;
  }
  return false;
}
