// Inline code handed to interpreters (python -c, node -e, deno eval, perl -e, ruby -e, php -r,
// heredocs into python…) and the small languages of awk and sed. Invariant: inline code runs
// unasked only when it is a short literal built from a fixed vocabulary of pure functions
// (print, len, json, Math…) with no way to reach files, processes, the network or eval;
// anything else — or anything computed — asks. Quoted strings in it are still judged as shell.
import { add, basename, isComputed, type Scope, stringLiterals } from "./command_patterns.ts";

/** The longest inline snippet that can be judged harmless. */
const MAX_BENIGN = 400;

/**
 * Identifiers (bare names and attribute names) a harmless snippet may use. None of them, nor any
 * chain of them, reaches a file, process, network or eval API: modules that could (os, shutil,
 * subprocess, fs, child_process, Deno.*, Bun.*) are absent, and so are reflection (getattr,
 * __dunder__, constructor, globalThis) and dynamic import/require.
 */
const SAFE_NAMES = new Set((
  // control words shared by the languages
  "if else elif for while in is not and or return def lambda pass break continue do end then " +
  "True False None true false null undefined new const let var function typeof of as " +
  "import from key reverse sep indent default exit quit " +
  // printing
  "print puts p pp echo say printf console log error info warn " +
  // Python builtins and pure modules
  "len sum min max abs round range sorted reversed list dict set tuple str int float bool repr " +
  "hex oct bin chr ord enumerate zip map filter any all divmod pow " +
  "json dumps loads load math sqrt pi floor ceil exp sin cos tan inf nan isnan " +
  "sys version version_info maxsize byteorder stdin stdout stderr read readline readlines " +
  "write argv datetime date now today isoformat strftime timedelta time " +
  "random randint choice shuffle uniform seed statistics mean median stdev string " +
  "ascii_letters ascii_lowercase ascii_uppercase digits re sub findall match search split " +
  "group groups itertools chain product permutations combinations islice count functools " +
  "reduce partial collections Counter defaultdict OrderedDict deque most_common decimal " +
  "Decimal fractions Fraction textwrap dedent fill wrap hashlib md5 sha1 sha256 hexdigest " +
  "digest encode decode base64 b64encode b64decode uuid uuid4 upper lower strip lstrip rstrip " +
  "title capitalize join splitlines replace startswith endswith index find rfind isdigit " +
  "isalpha zfill center ljust rjust keys values items get update append extend insert pop " +
  "remove clear sort copy " +
  // JavaScript (node, deno, bun)
  "JSON stringify parse Math abs random PI Number String Boolean Array Object isArray entries " +
  "parseInt parseFloat toFixed toString toUpperCase toLowerCase trim slice substring includes " +
  "push concat forEach some every indexOf length Date toISOString getTime getFullYear " +
  "process versions arch platform Deno " +
  // Ruby, PHP, Lua, R
  "each times upto to_s to_i to_a size inspect RUBY_VERSION PHP_VERSION PHP_EOL cat"
).split(/\s+/));

/** Text inside a string or regex that would interpolate code (perl/ruby/php/JS templates). */
const INTERPOLATES = /`|#\{|\$[\w{(:]|@[\w{$:]/;
/** Names after which `/` starts a regex literal rather than a division. */
const REGEX_AFTER = new Set(["if", "unless", "and", "or", "not", "return", "split", "grep", "map"]);
const CLOSE: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/** Read a delimited body starting at `i` (the opening delimiter); returns its end or -1. */
function readDelimited(code: string, i: number): number {
  const open = code[i];
  const close = CLOSE[open] ?? open;
  let depth = 1;
  for (let j = i + 1; j < code.length; j++) {
    if (code[j] === "\\") j++;
    else if (code[j] === close && --depth === 0) return j;
    else if (code[j] === open && close !== open) depth++;
  }
  return -1;
}

export type Lang = "python" | "node" | "perl" | "ruby" | "other";

/**
 * Whether a snippet is plainly harmless (see SAFE_NAMES). Strings and regex literals are
 * opaque but may not interpolate (`f"…"`, `"${…}"`, `"#{…}"`, `"@{[…]}"`), and `$`, `@`,
 * backticks, backslashes, subscripts (`x["constructor"]`) and `%x(…)` are refused outright.
 */
export function isBenignSnippet(code: string, lang: Lang): boolean {
  if (code.length > MAX_BENIGN || isComputed(code)) return false;
  // perl s///e and s{}{}ee evaluate their replacement as code.
  if (/[/}\])>][msixpodualngcr]*e[msixpodualngcer]*\s*($|[;})\n])/.test(code)) return false;
  const regexLiterals = lang === "node" || lang === "perl" || lang === "ruby";
  let prev = "";
  let prevId = "";
  for (let i = 0; i < code.length;) {
    const c = code[i];
    if (c === '"' || c === "'") {
      const j = readDelimited(code, i);
      if (j === -1 || INTERPOLATES.test(code.slice(i + 1, j))) return false;
      i = j + 1;
      prev = c;
      continue;
    }
    if (c === "/" && regexLiterals && (!/[a0)\]"']/.test(prev) || REGEX_AFTER.has(prevId))) {
      const j = readDelimited(code, i);
      if (j === -1 || INTERPOLATES.test(code.slice(i + 1, j))) return false;
      for (i = j + 1; /[a-z]/.test(code[i] ?? "");) i++;
      prev = "0";
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < code.length && /\w/.test(code[j])) j++;
      const id = code.slice(i, j);
      // A name glued to a quote is a string prefix (f"", rb'', qq'') that may interpolate.
      if (code[j] === '"' || code[j] === "'") return false;
      if (lang === "perl" && /^(s|y|tr|m|qr)$/.test(id) && /[^\w\s=,;)]/.test(code[j] ?? "")) {
        // perl quote-like regex operators: m/…/, qr{…}, s/…/…/, s{…}{…}, tr/…/…/.
        let k = j;
        for (let part = 0; part < (id === "m" || id === "qr" ? 1 : 2); part++) {
          while (/\s/.test(code[k] ?? "")) k++;
          const end = readDelimited(code, k);
          if (end === -1 || INTERPOLATES.test(code.slice(k + 1, end))) return false;
          // s/a/b/: the second part shares the middle delimiter.
          k = CLOSE[code[k]] ? end + 1 : end;
        }
        if (!CLOSE[code[j]]) k++;
        while (/[a-z]/.test(code[k] ?? "")) k++;
        i = k;
        prev = "0";
        continue;
      }
      if (!/^[a-z]$/.test(id) && !SAFE_NAMES.has(id)) return false;
      // Only Python's import names a module; JS import() loads any URL, data: included.
      if ((id === "import" || id === "from") && lang !== "python") return false;
      // Words that are harmless in one language run a file in another: perl `do FILE`,
      // ruby/lua `load` (load "/dev/stdin" runs whatever is piped in).
      if (
        id === "load" && lang !== "python" || id === "do" && (lang === "perl" || lang === "other")
      ) {
        return false;
      }
      i = j;
      prev = "a";
      prevId = id;
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < code.length && /[\w.]/.test(code[i])) i++;
      prev = "0";
      continue;
    }
    if ("$@`\\#".includes(c)) return false;
    if (c === "%" && /[A-Za-z({[]/.test(code[i + 1] ?? "")) return false;
    // A JS subscript reaches any property by name (x["constructor"]); Python's and Ruby's
    // are plain lookups.
    if (c === "[" && /[a0)\]}"']/.test(prev) && lang !== "python" && lang !== "ruby") return false;
    if (!/\s/.test(c)) {
      prev = c;
      prevId = "";
    }
    i++;
  }
  return true;
}

/** Judge inline code for interpreter `name`: computed → computed_code, else benign or ask. */
export function judgeInlineCode(
  name: string,
  code: string,
  scope: Scope,
  nested: (s: string) => void,
): void {
  if (isComputed(code)) return add(scope, "computed_code");
  stringLiterals(code).forEach(nested);
  if (!isBenignSnippet(code, langOf(name))) add(scope, "inline_code");
}

export function langOf(name: string): Lang {
  if (/^python/.test(name)) return "python";
  if (["node", "nodejs", "bun", "deno"].includes(name)) return "node";
  if (name === "perl" || name === "ruby") return name;
  return "other";
}

export interface InterpreterArgs {
  /** Inline code arguments (-c, -e, eval …). */
  code: string[];
  /** The script operand, when the interpreter runs a file. */
  script?: string;
  /** Code comes from standard input (no code, no script, or `-`). */
  readsStdin: boolean;
}

/** Inline code glued to its flag, per language. */
const ATTACHED_CODE: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c(.+)$/s,
  perl: /^-[A-Za-z]*?[eE](.+)$/s,
  ruby: /^-[A-Za-z]*?e(.+)$/s,
  node: /^--(?:eval|print)=(.*)$/s,
  php: /^-r(.+)$/s,
};

const VALUE_FLAGS: Record<string, string[]> = {
  python: ["-W", "-X", "-Q"],
  perl: ["-I", "-M", "-m", "-x"],
  ruby: ["-I", "-r", "-C", "-E", "-F"],
  node: ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"],
  php: ["-c", "-d", "-z"],
  lua: ["-l"],
};

/** Split an interpreter's argv into inline code, the script operand and stdin use. */
export function interpreterArgs(name: string, args: string[]): InterpreterArgs {
  const lang = name === "deno" ? "deno" : langOf(name) === "other" ? name : langOf(name);
  const isCode = (a: string): boolean => {
    switch (lang) {
      case "python":
        return /^-[A-Za-z]*c$/.test(a);
      case "perl":
        return /^-[A-Za-z]*[eE]$/.test(a);
      case "ruby":
        return /^-[A-Za-z]*e$/.test(a);
      case "node":
        return /^-[a-z]*[ep]$/.test(a) || a === "--eval" || a === "--print";
      case "php":
        return a === "-r";
      default:
        return a === "-e" || a === "--eval" || a === "-c";
    }
  };
  const withValue = new Set(VALUE_FLAGS[lang] ?? []);
  const code: string[] = [];
  let script: string | undefined;
  let i = 0;
  if (lang === "deno") {
    // deno SUBCOMMAND …: only `eval` takes code; `run FILE` runs a script.
    while (i < args.length && args[i].startsWith("-")) i++;
    const sub = args[i++];
    if (sub === undefined) return { code, readsStdin: true };
    const rest = args.slice(i).filter((a) => !a.startsWith("-"));
    if (sub === "eval") return { code: rest.slice(0, 1), readsStdin: false };
    if (sub === "run") return { code, script: rest[0], readsStdin: rest[0] === "-" };
    return { code, readsStdin: false };
  }
  const attached = ATTACHED_CODE[lang] ?? /^-e(.+)$/s;
  for (; i < args.length; i++) {
    const a = args[i];
    const glued = a.match(attached);
    if (glued) {
      // Code glued to its flag: python3 -c'…', perl -le'…', node --eval=…, php -r'…'.
      code.push(glued[1]);
      if (lang === "python" || lang === "node" || lang === "php") break;
    } else if (isCode(a) && args[i + 1] !== undefined) {
      code.push(args[++i]);
      // python -c CODE and node -e CODE end the options; perl/ruby/osascript take several -e.
      if (lang === "python" || lang === "node" || lang === "php") break;
    } else if (withValue.has(a)) i++;
    else if (a === "-" || !a.startsWith("-")) {
      if (!code.length) script = a;
      break;
    } else if (lang === "python" && a === "-m") {
      script = args[i + 1] ?? "";
      break;
    }
  }
  const fromStdin = script === undefined || script === "-" || script === "/dev/stdin";
  return { code, script, readsStdin: !code.length && fromStdin };
}

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);
export const isAwk = (name: string) => AWKS.has(basename(name));

/** What awk's arguments name besides its program: files of code, files edited in place. */
export interface AwkFiles {
  /** A program file (-f, -E) or an included source (-i FILE): code to run. */
  runFile(path: string): void;
  /** An operand gawk's `inplace` extension rewrites. */
  inPlace(path: string): void;
}

/**
 * awk: a program that runs commands (system(), pipes), writes files or loads code asks; its
 * program files and includes are judged as files it runs, and with `gawk -i inplace` every
 * operand is edited in place.
 */
export function judgeAwk(args: string[], scope: Scope, files?: AwkFiles): void {
  let program: string | undefined;
  let fromFile = false;
  let inPlace = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (["-f", "--file", "-E", "--exec"].includes(a) || /^-[fE]./.test(a)) {
      fromFile = true;
      const file = a.length > 2 && !a.startsWith("--") ? a.slice(2) : args[++i] ?? "";
      if (isComputed(file)) add(scope, "computed_code");
      files?.runFile(file);
    } else if (a === "-i" || a === "--include" || /^(-i.|--include=)/.test(a)) {
      const lib = a === "-i" || a === "--include"
        ? args[++i] ?? ""
        : a.replace(/^-i|^--include=/, "");
      if (lib === "inplace" || lib === "inplace.awk") inPlace = true;
      else if (lib.includes("/") || lib.endsWith(".awk")) files?.runFile(lib);
      else add(scope, "inline_code");
    } else if (["-F", "-v", "--assign", "--field-separator"].includes(a)) i++;
    else if (a === "-e" || a === "--source") program = (program ?? "") + (args[++i] ?? "");
    else if (a === "--") continue;
    else if (!a.startsWith("-") || a === "-") {
      if (!fromFile && program === undefined) {
        program = a;
        i++;
      }
      break;
    }
  }
  if (inPlace) {
    for (const f of args.slice(i)) if (!/^[A-Za-z_]\w*=/.test(f) && f !== "-") files?.inPlace(f);
  }
  if (program === undefined) return;
  if (isComputed(program)) return add(scope, "computed_code");
  if (
    /\bsystem\s*\(|(?<!\|)\|(?!\|)|@load|@include/.test(program) ||
    /\bprintf?\b[^;}]*>/.test(program)
  ) add(scope, "inline_code");
}

/** sed: the GNU `e` command and the `e` flag of `s` run shell commands; `w` writes a file. */
export function judgeSedScript(
  script: string,
  scope: Scope,
  writeTarget: (path: string) => void,
): void {
  if (isComputed(script)) return add(scope, "computed_code");
  const addr = String.raw`(?:\d+|\$|\/(?:[^/\\]|\\.)*\/[IM]*)`;
  const lead = new RegExp(String.raw`^[\s;{}]*(?:${addr}(?:\s*,\s*(?:${addr}|[~+]\d+))?)?\s*!?\s*`);
  let rest = script;
  for (let guard = 0; guard < 200 && rest.length; guard++) {
    rest = rest.replace(lead, "");
    const c = rest[0];
    if (c === undefined) return;
    if (c === "s" || c === "y") {
      const d = rest[1];
      let i = 2;
      for (let parts = 0; parts < 2 && i < rest.length; i++) {
        if (rest[i] === "\\") i++;
        else if (rest[i] === d) parts++;
      }
      const flags = rest.slice(i).match(/^[gpIiMme0-9w]*/)![0];
      rest = rest.slice(i + flags.length);
      if (c === "s" && flags.includes("e")) add(scope, "inline_code");
      if (c === "s" && flags.includes("w")) {
        const line = rest.split("\n")[0];
        writeTarget(line.trim());
        rest = rest.slice(line.length);
      }
      continue;
    }
    // Commands whose argument is the rest of the line.
    if ("ewWrRaic".includes(c)) {
      const line = rest.split("\n")[0];
      if (c === "e") add(scope, "inline_code");
      if (c === "w" || c === "W") writeTarget(line.slice(1).trim());
      rest = rest.slice(line.length);
      continue;
    }
    if (c === ":" || c === "b" || c === "t" || c === "T") {
      rest = rest.slice(1).replace(/^[^;\n}]*/, "");
      continue;
    }
    rest = rest.slice(1);
  }
}
