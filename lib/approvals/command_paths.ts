// Path rules of the command policy: which paths are the root, system directories or the home
// directory (recursive deletes there are hardline), and which written paths are sensitive
// (/etc, ~/.ssh, shell start-up files, .env, credentials, the console's own config, devices).
import { add, basename, HOME, type PatternKey, type Scope, words } from "./command_patterns.ts";
import { SUBST_MARK } from "./shell_syntax.ts";
import { noteWrite } from "./changed_files.ts";

const SYSTEM_ROOTS = words(
  "/bin /boot /dev /etc /home /lib /lib32 /lib64 /libx32 /media /mnt /opt /proc /root /run " +
    "/sbin /snap /srv /sys /usr /var /usr/bin /usr/lib /usr/lib64 /usr/local /usr/sbin " +
    "/usr/share /usr/include /var/lib /var/log",
);
const SYSTEM_PREFIXES = [...words(
  "/bin /boot /dev /etc /lib /lib32 /lib64 /libx32 /opt /proc /root /sbin /srv /sys /usr " +
    "/var",
)];
const SYSTEM_WRITE_PREFIXES = [...words(
  "/usr /bin /sbin /lib /lib32 /lib64 /boot /sys",
)];
const SHELL_RC = words(
  ".bashrc .bash_profile .bash_login .bash_logout .profile .zshrc .zprofile .zshenv .zlogin " +
    ".zlogout .cshrc .tcshrc .kshrc .mkshrc .envrc config.fish .inputrc",
);
const CREDENTIAL_NAMES = words(
  ".netrc .npmrc .pypirc .git-credentials .pgpass .my.cnf id_rsa id_dsa id_ecdsa id_ed25519 " +
    ".yarnrc.yml .dockercfg",
);
const CREDENTIAL_PATHS = [
  /(^|\/)\.aws\/(credentials|config)$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)\.gnupg\//,
  /(^|\/)\.config\/gh\/hosts\.yml$/,
  /(^|\/)\.config\/gcloud\//,
  /(^|\/)\.azure\//,
];
const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|loop\d|md\d|dm-\d|sr\d|disk\/|mapper\/|block\/|mem$|kmem$|port$|root$)/;

/** Lexically normalize a path word: `~` kept, `..` folded, trailing globs of "everything" kept. */
export function normPath(word: string, scope: Scope): string | null {
  if (word.includes(SUBST_MARK) || word === "") return null;
  let p = word;
  const home = scope.opts.home?.replace(/\/+$/, "");
  if (home && (p === home || p.startsWith(home + "/"))) p = HOME + p.slice(home.length);
  if (p === HOME || p.startsWith(HOME + "/")) {
    // keep the marker as a root
  } else if (!p.startsWith("/")) {
    if (!scope.cwd) return p.replace(/\/+$/, "") || p;
    p = scope.cwd + "/" + p;
  }
  const rootMark = p.startsWith(HOME) ? HOME : "";
  const parts: string[] = [];
  for (const seg of p.slice(rootMark.length).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return (rootMark || "") + "/" + parts.join("/");
}

/** `/`, `/*`, `/usr/*` → the directory that would be emptied. */
function stripEverythingGlob(p: string): string {
  let out = p;
  while (/\/(\*|\.\*|\*\.?\*?)$/.test(out)) out = out.replace(/\/[^/]*$/, "") || "/";
  if (out === "") out = "/";
  if (out === HOME + "/") out = HOME;
  return out.length > 1 ? out.replace(/\/+$/, "") || "/" : out;
}

export function deleteRootKind(p: string | null): PatternKey | null {
  if (p === null) return null;
  const target = stripEverythingGlob(p);
  if (target === "/" || target === "") return "rm_root";
  if (target === HOME || target === HOME + "/") return "rm_home";
  if (SYSTEM_ROOTS.has(target)) return "rm_system_root";
  return null;
}

function insideWorkspace(p: string, scope: Scope): boolean {
  const ws = scope.opts.workspace?.replace(/\/+$/, "");
  return !!ws && (p === ws || p.startsWith(ws + "/"));
}

/**
 * Whether a destination lies outside the workspace: absolute or `~` paths not inside it, or a
 * relative path climbing out with `..`. Computed paths are judged elsewhere (false here).
 */
export function outsideWorkspace(word: string, scope: Scope): boolean {
  let p = normPath(word, scope);
  if (p === null) return false;
  const home = scope.opts.home?.replace(/\/+$/, "");
  if (home && (p === HOME || p.startsWith(HOME + "/"))) p = home + p.slice(HOME.length);
  if (p.startsWith(HOME)) return true;
  if (!p.startsWith("/")) return p === ".." || p.startsWith("../");
  return !insideWorkspace(p, scope);
}

export function isSystemPath(p: string | null, scope: Scope): boolean {
  if (!p || !p.startsWith("/") || p === "/" || insideWorkspace(p, scope)) return false;
  return SYSTEM_PREFIXES.some((s) => p === s || p.startsWith(s + "/"));
}

const writtenKey = (p: string) => p.replace(/^(\.\/)+/, "");

/** Whether this command line wrote `word` earlier (redirect, tee, cp, curl -o, …). */
export function wasWritten(word: string, scope: Scope): boolean {
  const p = normPath(word, scope);
  return p !== null && scope.written.has(writtenKey(p));
}

/** Judge one path the command writes to. */
export function checkWriteTarget(word: string, scope: Scope): void {
  noteWrite(word, scope);
  const p = normPath(word, scope);
  if (!p) return;
  scope.written.add(writtenKey(p));
  if (p.startsWith("/dev/")) {
    if (BLOCK_DEVICE.test(p)) add(scope, "write_block_device");
    return;
  }
  if (p === "/proc/sysrq-trigger") return add(scope, "shutdown_host");
  const config = scope.opts.configPath;
  const home = scope.opts.home?.replace(/\/+$/, "");
  const expanded = home && p.startsWith(HOME) ? home + p.slice(1) : p;
  if (
    (config && (expanded === config || p === config)) || /(^|\/)\.hermes\/config\.ya?ml$/.test(p)
  ) {
    add(scope, "write_hermes_config");
  }
  if (insideWorkspace(p, scope) && !/(^|\/)\.ssh\//.test(p)) {
    // fall through to name-based checks only
  } else if (p === "/etc" || p.startsWith("/etc/")) add(scope, "write_etc");
  else if (SYSTEM_WRITE_PREFIXES.some((s) => p === s || p.startsWith(s + "/"))) {
    add(scope, "write_system_path");
  }
  const name = basename(p);
  if (/(^|\/)\.ssh(\/|$)/.test(p)) add(scope, "write_ssh");
  if (SHELL_RC.has(name)) add(scope, "write_shell_rc");
  if (name === ".env" || name.startsWith(".env.")) add(scope, "write_env_file");
  if (CREDENTIAL_NAMES.has(name) || CREDENTIAL_PATHS.some((re) => re.test(p))) {
    add(scope, "write_credentials");
  }
  // Case-insensitive: on such file systems `.GIT/hooks` is git's own directory.
  if (/(^|\/)\.git\/(hooks(\/|$)|config$)/i.test(p)) add(scope, "write_git_hooks");
}
