// Options whose value is a command line the tool will run (ssh -o ProxyCommand, rsync -e,
// tar --to-command / -I / --checkpoint-action=exec, sort --compress-program, git clone -u,
// man -P, zip -TT): the value is judged as a command, so `rsync -e 'ssh -p 22'` stays safe
// while a delete or computed code there asks. Editors given ex commands (vim -c '!…') ask.
import { add, type Scope } from "./command_patterns.ts";

/** Per command: option names whose value (next word or `--opt=value`) is a command line. */
const COMMAND_OPTIONS: Record<string, string[]> = {
  rsync: ["-e", "--rsh", "--rsync-path"],
  tar: [
    "--to-command",
    "-I",
    "--use-compress-program",
    "--info-script",
    "-F",
    "--new-volume-script",
  ],
  sort: ["--compress-program"],
  git: ["-u", "--upload-pack", "--receive-pack", "--exec"],
  man: ["-P", "--pager"],
  zip: ["-TT", "--unzip-command"],
  scp: ["-S"],
};
/** ssh-family `-o Key=value` keys whose value is a local command. */
const SSH_COMMAND_KEYS = /^(ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.*)$/is;
const SSH_FAMILY = new Set(["ssh", "scp", "sftp", "autossh"]);
const EDITORS = new Set(["vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim", "gvim"]);

/** Judge option values that are command lines; `nested` judges an executed string. */
export function judgeCommandOptions(
  name: string,
  args: string[],
  scope: Scope,
  nested: (s: string) => void,
): void {
  const names = Object.hasOwn(COMMAND_OPTIONS, name) ? COMMAND_OPTIONS[name] : [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (names.includes(a) && args[i + 1] !== undefined) nested(args[i + 1]);
    const eq = a.indexOf("=");
    if (eq > 0 && names.includes(a.slice(0, eq))) nested(a.slice(eq + 1));
    if (name === "tar" && a.startsWith("--checkpoint-action=exec=")) nested(a.slice(25));
    if (SSH_FAMILY.has(name)) {
      const opt = a === "-o" ? args[i + 1] ?? "" : a.startsWith("-o") ? a.slice(2) : "";
      const m = opt.match(SSH_COMMAND_KEYS);
      if (m) nested(m[2]);
    }
    if (EDITORS.has(name) && (/^(-c|--cmd|-S)$/.test(a) || a.startsWith("+"))) {
      add(scope, "inline_code");
    }
  }
}
