// Per-command rules of the command policy: peel wrappers (sudo, env, timeout, …) off a simple
// command, then judge its argv by command name (rm, find, xargs, dd, kill, chmod, git, package
// managers, …). Strings the command would execute are handed back through `nested`.
import {
  add,
  basename,
  DOWNLOADERS,
  HOME,
  INTERPRETERS,
  isFlag,
  type Scope,
  SHELLS,
  stringLiterals,
} from "./command_patterns.ts";
import { checkWriteTarget, deleteRootKind, isSystemPath, normPath } from "./command_paths.ts";
import { SUBST_MARK } from "./shell_syntax.ts";

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
      const c = argv.findIndex((a) => a === "-c" || a === "--command");
      if (c !== -1 && argv[c + 1]) nested(argv[c + 1]);
      return [];
    } else if (name === "env") {
      while (i < argv.length) {
        const a = argv[i];
        if (a === "-S" || a === "--split-string") {
          if (argv[i + 1]) nested(argv.slice(i + 1).join(" "));
          return [];
        }
        if (a === "-u" || a === "-C" || a === "--unset" || a === "--chdir") i += 2;
        else if (a.startsWith("-") || /^[A-Za-z_]\w*=/.test(a)) i++;
        else break;
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
      skipOpts(new Set(["--userspec", "--groups"]));
      i++;
    } else if (name === "busybox" || name === "strace" || name === "ltrace" || name === "time") {
      skipOpts(new Set(["-o", "-e", "-p", "-s"]));
    } else if (name === "watch") {
      skipOpts(new Set(["-n", "--interval", "-d", "-q"]));
      if (i < argv.length) nested(argv.slice(i).join(" "));
      return [];
    } else return argv;
    argv = argv.slice(i);
  }
  return argv;
}

function shortFlags(args: string[]): string {
  return args.filter((a) => /^-[A-Za-z]/.test(a) && !a.startsWith("--")).map((a) => a.slice(1))
    .join("");
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
  if (name === "cd") {
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
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
      if (c !== -1 && args[c + 1] !== undefined) nested(args[c + 1]);
    }
    return name;
  }
  if (INTERPRETERS.has(name)) {
    const c = args.findIndex((a) =>
      ["-c", "-e", "-E", "--eval", "-r", "-p"].includes(a) || /^-[a-z]*e$/.test(a)
    );
    if (c !== -1 && args[c + 1] !== undefined) stringLiterals(args[c + 1]).forEach(nested);
    if (name === "perl" && args.some((a) => /^-[a-zA-Z]*i/.test(a))) {
      // perl -pi -e 's/…/' FILE…: every operand after the script is edited in place.
      const files = args.filter((a, x) => !a.startsWith("-") && x !== c + 1);
      for (const f of files) checkWriteTarget(f, scope);
    }
    const m = args.indexOf("-m");
    if (m !== -1 && args[m + 1] === "pip") {
      return judgeArgv("pip", args.slice(m + 2), scope, nested);
    }
    return name;
  }
  if (DOWNLOADERS.has(name)) {
    for (let i = 0; i < args.length; i++) {
      if (["-o", "-O", "--output", "--output-document"].includes(args[i]) && args[i + 1]) {
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
      while (i < args.length && args[i].startsWith("-")) i += withValue.has(args[i]) ? 2 : 1;
      const sub = args.slice(i);
      if (sub.length) {
        const subName = basename(sub[0]);
        if (["rm", "shred", "unlink"].includes(subName)) add(scope, "xargs_rm");
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
      return name;
    }
    case "dd": {
      for (const a of args) {
        if (a.startsWith("of=")) checkWriteTarget(a.slice(3), scope);
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
      }
      return name;
    }
    case "sed": {
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) {
        const ops = operands();
        const hasScript = args.some((a) => a === "-e" || a === "-f" || a === "--expression");
        for (const f of hasScript ? ops : ops.slice(1)) checkWriteTarget(f, scope);
      }
      return name;
    }
    case "truncate": {
      const ops: string[] = [];
      for (let i = 0; i < args.length; i++) {
        if (args[i] === "-s" || args[i] === "-r" || args[i] === "--size") i++;
        else if (!args[i].startsWith("-")) ops.push(args[i]);
      }
      for (const f of ops) checkWriteTarget(f, scope);
      return name;
    }
    case "git":
      judgeGit(args, scope);
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

function judgeGit(args: string[], scope: Scope): void {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(args[i]) ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const flags = shortFlags(rest);
  if (sub === "reset" && rest.includes("--hard")) add(scope, "git_reset_hard");
  if (sub === "push") {
    if (
      /f/.test(flags) || rest.some((a) =>
        /^--(force|force-with-lease|force-if-includes|mirror)(=|$)/.test(a)
      ) ||
      rest.some((a) => /^\+/.test(a))
    ) add(scope, "git_force_push");
  }
  if (sub === "clean" && (/f/.test(flags) || rest.includes("--force"))) add(scope, "git_clean");
  if (sub === "branch") {
    const del = /d/.test(flags) || rest.includes("--delete");
    if (/D/.test(flags) || (del && (/f/.test(flags) || rest.includes("--force")))) {
      add(scope, "git_branch_delete");
    }
  }
}

function isPackageRemoval(name: string, args: string[]): boolean {
  const sub = args.find((a) => !a.startsWith("-"));
  const has = (...xs: string[]) => xs.includes(sub ?? "");
  const global = args.includes("-g") || args.includes("--global") || args.includes("global");
  switch (name) {
    case "apt":
    case "apt-get":
    case "aptitude":
      return has("remove", "purge", "autoremove", "autopurge");
    case "dpkg":
      return args.some((a) => ["-r", "-P", "--remove", "--purge"].includes(a));
    case "yum":
    case "dnf":
    case "microdnf":
      return has("remove", "erase", "autoremove");
    case "pacman":
      return args.some((a) => /^-R/.test(a) || a === "--remove");
    case "apk":
      return has("del");
    case "zypper":
      return has("remove", "rm");
    case "snap":
    case "flatpak":
      return has("remove", "uninstall");
    case "brew":
    case "port":
      return has("uninstall", "remove", "rm");
    case "gem":
    case "cargo":
      return has("uninstall");
    case "conda":
    case "mamba":
    case "micromamba":
      return has("remove", "uninstall");
    case "pipx":
      return has("uninstall", "uninstall-all");
    case "nix-env":
      return args.some((a) => a === "-e" || a === "--uninstall");
    case "npm":
    case "pnpm":
    case "bun":
      return has("uninstall", "remove", "rm", "r", "un", "unlink") && global;
    case "yarn":
      return args[0] === "global" && ["remove", "rm"].includes(args[1]);
  }
  return /^pip(\d(\.\d+)?)?$/.test(name) && has("uninstall");
}
