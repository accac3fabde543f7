// Per-command rules of the command policy: peel wrappers (sudo, env, timeout, …) off a simple
// command, then judge its argv by command name (rm, find, xargs, dd, kill, chmod, git, package
// managers, …). Strings the command would execute are handed back through `nested`; words the
// reader could not resolve arrive as SUBST_MARK and ask wherever they could change the outcome.
import {
  add,
  basename,
  DESTRUCTIVE,
  DOWNLOADERS,
  HOME,
  INTERPRETERS,
  isComputed,
  isFlag,
  NAMESPACE_TOOLS,
  type Scope,
  SHELLS,
  shortFlags,
} from "./command_patterns.ts";
import {
  checkWriteTarget,
  deleteRootKind,
  isSystemPath,
  normPath,
  outsideWorkspace,
  wasWritten,
} from "./command_paths.ts";
import { SUBST_MARK } from "./shell_syntax.ts";
import { judgeGit } from "./command_git.ts";
import { judgeGitHooks } from "./git_hooks.ts";
import { judgeAssignment } from "./code_env.ts";
import {
  checkInPlace,
  checkRunFile,
  enterDir,
  leavesWorkspace,
  noteUnseenWrites,
} from "./changed_files.ts";
import { judgeIncludePath, judgePython, judgeRecipeRuns } from "./run_rules.ts";
import { judgeCommandOptions } from "./command_options.ts";
import { isPackageRemoval } from "./command_packages.ts";
import {
  interpreterArgs,
  isAwk,
  judgeAwk,
  judgeInlineCode,
  judgeSedScript,
} from "./command_code.ts";

/** Programs that run other programs: a copy under another name hides what runs. */
const RUNNERS = new Set(["busybox", "find", "xargs", "env", "eval", "sudo", "git", "awk", "sed"]);

/** Suffix of a stage label whose command reads the code it runs from stdin. */
export const STDIN_CODE = ":stdin";

/**
 * Where a script operand's code comes from: `stdin` (-, /dev/stdin, fd 0), or a file. A computed
 * path or another file descriptor (/dev/fd/3, /proc/self/fd/9) holds code the policy cannot
 * see: that asks here.
 */
function codeSource(path: string, scope: Scope): "stdin" | "file" {
  if (path === "-" || /^\/(dev\/stdin|dev\/fd\/0|proc\/[^/]+\/fd\/0)$/.test(path)) return "stdin";
  if (
    isComputed(path) || /^\/(dev\/fd|proc\/[^/]+\/fd)\//.test(path) || wasWritten(path, scope)
  ) add(scope, "computed_code");
  return "file";
}

/** Peel wrappers (sudo, env, nice, timeout, …) off argv, judging what they imply. */
export function unwrap(argv: string[], scope: Scope, nested: (s: string) => void): string[] {
  for (let guard = 0; guard < 10 && argv.length; guard++) {
    const name = basename(argv[0]);
    let i = 1;
    const skipOpts = (withValue: Set<string>) => {
      while (i < argv.length && argv[i].startsWith("-") && argv[i] !== "-") {
        if (argv[i] === "--") {
          i++;
          break;
        }
        if (withValue.has(argv[i])) i++;
        i++;
      }
    };
    if (name === "sudo" || name === "doas" || name === "run0" || name === "pkexec") {
      add(scope, "sudo");
      skipOpts(new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R"]));
    } else if (name === "su" || name === "runuser") {
      add(scope, "sudo");
      const c = argv.findIndex((a) => /^-[a-zA-Z]*c$/.test(a) || a === "--command");
      if (c !== -1 && argv[c + 1]) nested(argv[c + 1]);
      return [];
    } else if (name === "env") {
      while (i < argv.length) {
        const a = argv[i];
        if (a === "-S" || a === "--split-string") {
          if (argv[i + 1]) nested(argv.slice(i + 1).join(" "));
          return [];
        }
        if (a === "-u" || a === "--unset") i += 2;
        else if (a === "-C" || a === "--chdir") {
          enterDir([argv[i + 1] ?? ""], scope);
          i += 2;
        } else if (a.startsWith("-")) i++;
        else if (a.includes("=")) {
          // env takes any NAME=VALUE, even names a shell could not assign (BASH_FUNC_ls%%).
          const eq = a.indexOf("=");
          judgeAssignment(a.slice(0, eq), a.slice(eq + 1), scope);
          i++;
        } else break;
      }
    } else if (name === "nice" || name === "ionice" || name === "chrt" || name === "taskset") {
      skipOpts(new Set(["-n", "-c", "-t", "-p"]));
      if (name === "chrt" || name === "taskset") i++;
    } else if (name === "timeout") {
      skipOpts(new Set(["-s", "-k", "--signal", "--kill-after"]));
      i++;
    } else if (name === "stdbuf" || name === "setsid" || name === "nohup" || name === "unbuffer") {
      skipOpts(new Set(["-i", "-o", "-e"]));
    } else if (name === "command" || name === "builtin" || name === "exec") {
      if (argv.includes("-v") || argv.includes("-V")) return [];
      skipOpts(new Set(["-a"]));
    } else if (name === "chroot") {
      add(scope, "namespace_tool");
      skipOpts(new Set(["--userspec", "--groups"]));
      i++;
    } else if (name === "busybox" || name === "strace" || name === "ltrace" || name === "time") {
      skipOpts(new Set(["-o", "-e", "-p", "-s"]));
    } else if (name === "script" || name === "flock" || name === "sg") {
      // script -c CODE, flock [-c CODE | FILE CMD…], sg GROUP -c CODE run a command line.
      const c = argv.findIndex((a) => /^-[a-zA-Z]*c$/.test(a) || a === "--command");
      if (c !== -1 && argv[c + 1] !== undefined) nested(argv[c + 1]);
      if (name !== "flock" || c !== -1) return [];
      skipOpts(new Set(["-w", "--timeout", "-E", "--conflict-exit-code"]));
      i++;
    } else if (name === "parallel") {
      // parallel CMD ::: ARGS — like xargs, the arguments arrive at run time.
      skipOpts(new Set(["-j", "--jobs", "-S", "--sshlogin", "--delay", "--timeout"]));
      const end = argv.indexOf(":::");
      return [...argv.slice(i, end === -1 ? argv.length : end), SUBST_MARK];
    } else if (name === "watch") {
      skipOpts(new Set(["-n", "--interval", "-d", "-q"]));
      if (i < argv.length) nested(argv.slice(i).join(" "));
      return [];
    } else return argv;
    argv = argv.slice(i);
  }
  return argv;
}

export function judgeArgv(
  name: string,
  args: string[],
  scope: Scope,
  nested: (s: string) => void,
): string {
  const operands = () => {
    const out: string[] = [];
    let opts = true;
    for (const a of args) {
      if (opts && a === "--") opts = false;
      else if (opts && isFlag(a)) continue;
      else out.push(a);
    }
    return out;
  };
  if (isComputed(name)) {
    add(scope, "computed_command");
    return "@computed";
  }
  if (
    NAMESPACE_TOOLS.has(name) || (name === "ip" && args.some((a) => /^(netns|-n|-netns)$/.test(a)))
  ) {
    add(scope, "namespace_tool");
  }
  if (DESTRUCTIVE.has(name) && args.some(isComputed)) add(scope, "computed_argument");
  judgeCommandOptions(name, args, scope, nested);
  noteUnseenWrites(name, args, scope);
  if (judgeRecipeRuns(name, args, scope)) return name;
  if (name === "cd" || name === "pushd") {
    enterDir(args, scope);
    if (name === "pushd") return name;
    scope.cwd = args[0] === undefined ? HOME : args[0] === "-" ? null : normPath(args[0], scope);
    return name;
  }
  if (SHELLS.has(name) || name === "eval" || name === "ssh") {
    if (name === "eval") nested(args.join(" "));
    else if (name === "ssh") {
      const withValue = new Set("pilLoFJRDbcEemOQSWwB".split("").map((c) => "-" + c));
      let i = 0;
      while (i < args.length && args[i].startsWith("-")) i += withValue.has(args[i]) ? 2 : 1;
      if (args.length > i + 1) nested(args.slice(i + 1).join(" "));
    } else {
      judgeShellOptions(args, scope);
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
      if (c !== -1 && args[c + 1] !== undefined) nested(args[c + 1]);
      else {
        // bash SCRIPT: a computed script path runs unknown code; no script reads stdin.
        const withValue = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);
        let i = 0;
        while (i < args.length && /^[-+]/.test(args[i]) && args[i] !== "-") {
          if (args[i] === "-s") break;
          i += withValue.has(args[i]) ? 2 : 1;
        }
        const script = args[i];
        if (script === undefined || script === "-s" || codeSource(script, scope) === "stdin") {
          return name + STDIN_CODE;
        }
        // bash -n only reads the script for syntax.
        if (!/n/.test(shortFlags(args.slice(0, i)))) checkRunFile(script, scope);
      }
    }
    return name;
  }
  if (name === "source" || name === ".") {
    if (args[0] !== undefined && codeSource(args[0], scope) === "stdin") return name + STDIN_CODE;
    if (args[0] !== undefined) checkRunFile(args[0], scope);
    return name;
  }
  if (name === "at" || name === "batch") {
    // at/batch queue the shell commands read from stdin (or -f FILE).
    const f = args.indexOf("-f");
    if (f !== -1) codeSource(args[f + 1] ?? "", scope);
    return f === -1 ? name + STDIN_CODE : name;
  }
  if (name === "alias") {
    // An alias body runs whenever its name is typed: judge it as a command now.
    for (const a of args) {
      const eq = a.indexOf("=");
      if (eq > 0) nested(a.slice(eq + 1));
    }
    return name;
  }
  if (name === "trap") {
    if (args[0] !== undefined && !args[0].startsWith("-")) nested(args[0]);
    return name;
  }
  if (isAwk(name)) {
    judgeAwk(args, scope, {
      runFile: (f) => checkRunFile(f, scope),
      inPlace: (f) => checkInPlace(f, scope),
    });
    return name;
  }
  if (INTERPRETERS.has(name)) {
    const { code, script, readsStdin } = interpreterArgs(name, args);
    for (const c of code) judgeInlineCode(name, c, scope, nested);
    if (script !== undefined) codeSource(script, scope);
    judgeInterpreterFiles(name, args, script, scope);
    // deno run https://…, python3 <(…) aside: a script fetched from a URL is downloaded code.
    if (script !== undefined && /^(https?|data|blob|jsr|npm):/i.test(script)) {
      add(scope, "pipe_download_to_shell");
    }
    if (name === "perl" && args.some((a) => /^-[a-zA-Z]*i/.test(a))) {
      // perl -pi -e 's/…/' FILE…: every operand after the script is edited in place.
      const files = args.filter((a) => !a.startsWith("-") && !code.includes(a));
      for (const f of files) {
        checkWriteTarget(f, scope);
        checkInPlace(f, scope);
      }
    }
    const m = args.indexOf("-m");
    if (m !== -1 && args[m + 1] === "pip") {
      return judgeArgv("pip", args.slice(m + 2), scope, nested);
    }
    return readsStdin || (script !== undefined && codeSource(script, scope) === "stdin")
      ? name + STDIN_CODE
      : name;
  }
  if (DOWNLOADERS.has(name)) {
    for (let i = 0; i < args.length; i++) {
      const output = ["--output", "--output-document"].includes(args[i]) ||
        /^-[A-Za-z]*[oO]$/.test(args[i]);
      if (output && args[i + 1]) {
        if (args[i + 1] !== "-") checkWriteTarget(args[i + 1], scope);
      }
    }
    return "@download";
  }
  switch (name) {
    case "rm":
    case "unlink":
    case "rmdir": {
      const recursive = name === "rm" &&
        (/[rR]/.test(shortFlags(args)) || args.includes("--recursive"));
      const targets = operands().map((t) => normPath(t, scope));
      if (recursive) {
        add(scope, "rm_recursive");
        for (const t of targets) {
          const kind = deleteRootKind(t);
          if (kind) add(scope, kind);
        }
      }
      if (targets.some((t) => isSystemPath(t, scope))) add(scope, "rm_system_path");
      return name;
    }
    case "find": {
      const roots: string[] = [];
      let i = 0;
      while (i < args.length && !args[i].startsWith("-") && args[i] !== "(" && args[i] !== "!") {
        roots.push(args[i++]);
      }
      let deletes = args.includes("-delete");
      for (let j = i; j < args.length; j++) {
        if (["-exec", "-execdir", "-ok", "-okdir"].includes(args[j])) {
          const end = args.findIndex((a, x) => x > j && (a === ";" || a === "+"));
          const sub = args.slice(j + 1, end === -1 ? args.length : end).map((a) =>
            a === "{}" ? SUBST_MARK : a
          );
          if (sub.length) {
            const subName = basename(sub[0]);
            if (["rm", "shred", "unlink"].includes(subName)) deletes = true;
            if (sub[0].includes("/")) checkRunFile(sub[0], scope);
            judgeArgv(subName, sub.slice(1), scope, nested);
          }
        }
      }
      if (deletes) {
        add(scope, "find_delete");
        const paths = roots.length ? roots : ["."];
        if (paths.some((r) => deleteRootKind(normPath(r, scope)))) add(scope, "find_delete_root");
      }
      return name;
    }
    case "xargs": {
      const withValue = new Set([
        "-I",
        "-n",
        "-L",
        "-P",
        "-s",
        "-d",
        "-E",
        "-a",
        "--arg-file",
        "--max-args",
        "--max-procs",
        "--delimiter",
        "--replace",
        "--max-lines",
        "--eof",
      ]);
      let i = 0;
      let replace: string | null = null;
      while (i < args.length && args[i].startsWith("-")) {
        const a = args[i];
        if (a === "-I" || a === "--replace") replace = args[i + 1] ?? null;
        else if (a === "-i") replace = "{}";
        else if (/^-I./.test(a)) replace = a.slice(2);
        else if (a.startsWith("--replace=")) replace = a.slice(10);
        else if (a.startsWith("-i")) replace = a.slice(2);
        i += withValue.has(a) ? 2 : 1;
      }
      // The command's arguments come from stdin: they are computed.
      let sub = args.slice(i);
      sub = replace ? sub.map((a) => a.replaceAll(replace!, SUBST_MARK)) : [...sub, SUBST_MARK];
      if (sub.length > 1) {
        const subName = basename(sub[0]);
        if (["rm", "shred", "unlink"].includes(subName)) add(scope, "xargs_rm");
        if (sub[0].includes("/")) checkRunFile(sub[0], scope);
        judgeArgv(subName, sub.slice(1), scope, nested);
      }
      return name;
    }
    case "shred":
    case "wipefs":
    case "blkdiscard":
    case "mkswap":
    case "mke2fs": {
      const targets = operands().map((t) => normPath(t, scope) ?? "");
      if (
        targets.some((t) =>
          t.startsWith("/dev/") && !/^\/dev\/(null|zero|stdout|stderr|fd\/)/.test(t)
        )
      ) {
        add(scope, "format_device");
      } else if (name !== "shred") add(scope, "format_filesystem");
      else add(scope, "shred_file");
      return name;
    }
    case "dd": {
      for (const a of args) {
        if (!a.startsWith("of=")) continue;
        checkWriteTarget(a.slice(3), scope);
        checkInPlace(a.slice(3), scope);
      }
      return name;
    }
    case "kill": {
      let i = 0;
      if (args[0] === "-s" || args[0] === "-n") i = 2;
      else if (args[0] && /^-[A-Za-z0-9]+$/.test(args[0])) i = 1;
      const pids = args.slice(i).filter((a) => a !== "--");
      if (pids.includes("-1") || (args.length === 1 && args[0] === "-1")) {
        add(scope, "kill_all_processes");
      }
      return name;
    }
    case "killall5":
      add(scope, "kill_all_processes");
      return name;
    case "pkill": {
      const sigIdx = args.findIndex((a) => a === "--signal" || a === "-s");
      const sig = sigIdx !== -1 ? args[sigIdx + 1] ?? "" : "";
      if (args.some((a) => /^-(9|KILL|SIGKILL)$/i.test(a)) || /^(9|KILL|SIGKILL)$/i.test(sig)) {
        add(scope, "kill_force");
      }
      return name;
    }
    case "killall":
      add(scope, "kill_force");
      return name;
    case "shutdown":
      if (!args.includes("-c")) add(scope, "shutdown_host");
      return name;
    case "reboot":
    case "halt":
    case "poweroff":
      add(scope, "shutdown_host");
      return name;
    case "init":
    case "telinit":
      if (["0", "6"].includes(args[0])) add(scope, "shutdown_host");
      return name;
    case "systemctl": {
      const sub = operands()[0];
      if (["poweroff", "reboot", "halt", "kexec"].includes(sub)) add(scope, "shutdown_host");
      if (["stop", "disable", "mask", "kill"].includes(sub)) add(scope, "systemctl_stop");
      return name;
    }
    case "service":
      if (["stop", "disable"].includes(args[1])) add(scope, "systemctl_stop");
      return name;
    case "chmod": {
      const ops = operands();
      const mode = ops[0] ?? args.find((a) => /^-[rwxXst]+$/.test(a)) ?? "";
      const recursive = /R/.test(shortFlags(args)) || args.includes("--recursive");
      const worldWritable = /^[0-7]{3,4}$/.test(mode)
        ? (Number(mode.at(-1)) & 2) !== 0
        : mode.split(",").some((clause) => {
          const m = clause.match(/^([ugoa]*)[+=]([rwxXst]*)$/);
          return !!m && (m[1] === "" || /[oa]/.test(m[1])) && m[2].includes("w") &&
            (m[1] !== "" || clause.includes("="));
        });
      if (worldWritable) add(scope, "chmod_world_writable");
      if (recursive && ops.slice(1).some((t) => deleteRootKind(normPath(t, scope)))) {
        add(scope, "chmod_system_path");
      }
      return name;
    }
    case "chown":
    case "chgrp": {
      const ops = operands();
      const recursive = /R/.test(shortFlags(args)) || args.includes("--recursive");
      if (recursive) {
        const owner = ops[0] ?? "";
        if (
          /^(root|0)(:|\.|$)/.test(owner) ||
          ops.slice(1).some((t) => deleteRootKind(normPath(t, scope)))
        ) {
          add(scope, "chown_root");
        }
      }
      return name;
    }
    case "tee":
      for (const t of operands()) checkWriteTarget(t, scope);
      return name;
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      if (
        name === "rsync" &&
        args.some((a) => /^--(del|delete(-\w+)?|remove-source-files)(=|$)/.test(a))
      ) add(scope, "rsync_delete");
      // A shell, interpreter or deleting tool copied under another name hides what runs later.
      if (name !== "rsync" && name !== "scp") {
        for (const src of operands().slice(0, -1)) {
          const m = src.match(/^\/(?:usr\/)?(?:local\/)?s?bin\/([^/]+)$/);
          const bin = m?.[1] ?? "";
          if (
            DESTRUCTIVE.has(bin) || SHELLS.has(bin) || INTERPRETERS.has(bin) || RUNNERS.has(bin)
          ) {
            add(scope, "computed_command");
          }
        }
      }
      const t = args.findIndex((a) => a === "-t" || a === "--target-directory");
      const dest = t !== -1
        ? args[t + 1]
        : args.find((a) => a.startsWith("--target-directory="))?.split("=")[1] ??
          operands().at(-1);
      if (dest && operands().length >= (t !== -1 ? 1 : 2)) checkWriteTarget(dest, scope);
      if (name === "mv") {
        for (const src of operands().slice(0, -1)) {
          const kind = deleteRootKind(normPath(src, scope));
          if (kind) add(scope, "rm_system_path");
        }
        // What is moved out of the workspace is gone from it (and /tmp is gone after the command).
        if (dest && leavesWorkspace(dest, scope)) add(scope, "move_out_of_workspace");
      }
      return name;
    }
    case "sed": {
      const ops = operands();
      const scripts = args.filter((_a, x) => ["-e", "--expression"].includes(args[x - 1] ?? ""));
      const hasScript = args.some((a) => a === "-e" || a === "-f" || a === "--expression");
      const f = args.findIndex((a) => a === "-f" || a === "--file");
      if (f !== -1 && isComputed(args[f + 1] ?? "")) add(scope, "computed_code");
      // GNU sed scripts run commands (the e command): a script file is code like any other.
      if (f !== -1 && args[f + 1] !== undefined) checkRunFile(args[f + 1], scope);
      if (!hasScript && ops[0] !== undefined) scripts.push(ops[0]);
      for (const sc of scripts) judgeSedScript(sc, scope, (f) => checkWriteTarget(f, scope));
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) {
        const files = hasScript ? ops.filter((o) => !scripts.includes(o)) : ops.slice(1);
        if (files.some(isComputed)) add(scope, "computed_argument");
        for (const f of files) {
          checkWriteTarget(f, scope);
          checkInPlace(f, scope);
        }
      }
      return name;
    }
    case "tar":
      judgeTar(args, scope);
      return name;
    case "unzip": {
      const d = args.indexOf("-d");
      if (d !== -1 && args[d + 1] !== undefined && outsideWorkspace(args[d + 1], scope)) {
        add(scope, "archive_outside");
      }
      return name;
    }
    case "truncate": {
      const ops: string[] = [];
      for (let i = 0; i < args.length; i++) {
        if (args[i] === "-s" || args[i] === "-r" || args[i] === "--size") i++;
        else if (!args[i].startsWith("-")) ops.push(args[i]);
      }
      for (const f of ops) {
        checkWriteTarget(f, scope);
        checkInPlace(f, scope);
      }
      return name;
    }
    case "git":
      judgeGit(args, scope);
      judgeGitHooks(args, scope);
      return name;
    case "zip":
      // zip -m moves the files into the archive: they are deleted from the workspace.
      if (/m/.test(shortFlags(args)) || args.includes("--move")) add(scope, "archive_remove_files");
      return name;
    case "7z":
    case "7za":
    case "7zr":
      if (args.includes("-sdel")) add(scope, "archive_remove_files");
      return name;
    case "crontab":
      if (/r/.test(shortFlags(args))) add(scope, "crontab_remove");
      return name;
    case "base64":
    case "base32":
    case "basenc":
      return args.some((a) => /^-[a-zA-Z]*[dD]/.test(a) || a === "--decode") ? "@decode" : name;
    case "xxd":
      return args.some((a) => /^-[a-z]*r/.test(a) || a === "-revert") ? "@decode" : name;
    case "openssl":
      return args.includes("-d") ? "@decode" : name;
    case "uudecode":
      return "@decode";
  }
  if (/^mkfs(\.\w+)?$/.test(name)) {
    const targets = operands().map((t) => normPath(t, scope) ?? "");
    add(scope, targets.some((t) => t.startsWith("/dev/")) ? "format_device" : "format_filesystem");
  }
  if (isPackageRemoval(name, args)) add(scope, "package_remove");
  return name;
}

/** tar extracting to an absolute path or outside the workspace (-C /, -P). */
function judgeTar(args: string[], scope: Scope): void {
  // --remove-files, or any prefix of it getopt accepts (--remove): the files are deleted.
  if (args.some((a) => /^--rem(o(v(e(-(f(i(l(es?)?)?)?)?)?)?)?)?$/.test(a))) {
    add(scope, "archive_remove_files");
  }
  const first = args[0] ?? "";
  const oldStyle = first !== "" && !first.startsWith("-") ? first : "";
  const extract = /x/.test(oldStyle) || /x/.test(shortFlags(args)) ||
    args.some((a) => a === "--extract" || a === "--get");
  if (!extract) return;
  if (/P/.test(oldStyle) || /P/.test(shortFlags(args)) || args.includes("--absolute-names")) {
    add(scope, "archive_outside");
  }
  const dirs: string[] = [];
  args.forEach((a, x) => {
    if (a === "-C" || a === "--directory") dirs.push(args[x + 1] ?? "");
    else if (/^-C./.test(a)) dirs.push(a.slice(2));
    else if (a.startsWith("--directory=")) dirs.push(a.slice(12));
  });
  if (dirs.some((d) => outsideWorkspace(d, scope))) add(scope, "archive_outside");
}

/**
 * Shell options that run start-up files: `-i` (interactive: .bashrc, $ENV), `--rcfile` and
 * `--init-file` (that file). The file named is run like a script.
 */
function judgeShellOptions(args: string[], scope: Scope): void {
  for (let i = 0; i < args.length && /^[-+]/.test(args[i]) && args[i] !== "-"; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "--rcfile" || a === "--init-file") {
      add(scope, "interactive_shell");
      checkRunFile(args[++i] ?? "", scope);
    } else if (a === "--interactive" || /^-[a-zA-Z]*i/.test(a)) add(scope, "interactive_shell");
    else if (["-o", "+o", "-O", "+O"].includes(a)) i++;
  }
}

/**
 * Files an interpreter runs: its script (not `-m module`, stdin or a URL), node's preloads
 * (-r, --require, --import, --loader) and ruby's -r, and Python's module search path.
 */
function judgeInterpreterFiles(
  name: string,
  args: string[],
  script: string | undefined,
  scope: Scope,
): void {
  const m = args.indexOf("-m");
  const module = /^python/.test(name) && m !== -1 && args[m + 1] === script ? script : undefined;
  // stdin, a descriptor and a URL are judged elsewhere (codeSource, pipe_download_to_shell).
  const notAFile = script === undefined || script === "-" ||
    /^\/(dev\/(stdin|fd\/)|proc\/)/.test(script) || /^(https?|data|blob|jsr|npm):/i.test(script);
  if (!notAFile && module === undefined) checkRunFile(script!, scope);
  if (/^python/.test(name)) judgePython(script, module, scope);
  if (name === "perl" || name === "ruby") judgeIncludePath(name, args, scope);
  const preload = name === "ruby"
    ? ["-r"]
    : ["node", "nodejs", "bun", "deno"].includes(name)
    ? ["-r", "--require", "--import", "--loader", "--experimental-loader", "--preload"]
    : [];
  for (let i = 0; i < args.length; i++) {
    const eq = args[i].indexOf("=");
    const value = preload.includes(args[i])
      ? args[i + 1]
      : eq > 0 && preload.includes(args[i].slice(0, eq))
      ? args[i].slice(eq + 1)
      : /^-r[./]/.test(args[i]) && preload.includes("-r")
      ? args[i].slice(2)
      : undefined;
    if (value !== undefined && /^[./~]/.test(value)) checkRunFile(value, scope);
  }
}
