// A small, forgiving reader of POSIX/bash command lines, for the command policy only: it
// splits a line into pipelines of simple commands (argv with quotes removed, redirect
// targets, heredoc bodies) and lifts out the text of $(…), `…`, <(…) and >(…) so they can
// be judged as commands too. A `$` the shell would not expand (single quotes, `\$`) becomes
// LIT_DOLLAR, so a remaining `$name` is always a real expansion. Never executes, never throws.

/** One redirect: the operator (`>`, `>>`, `<`, `&>`, `>|`…) and its target word. */
export interface Redirect {
  op: string;
  target: string;
}

/** A simple command: its words after quote removal, redirects and heredoc bodies. */
export interface SimpleCommand {
  argv: string[];
  redirects: Redirect[];
  /** Bodies of `<<` heredocs, raw text. */
  heredocs: string[];
  /** Words of `<<<` here-strings, read like argv words. */
  hereStrings: string[];
}

export interface ParsedLine {
  /** Pipelines in order; each is the list of commands joined by `|`. */
  pipelines: SimpleCommand[][];
  /** Inner text of command and process substitutions, to be judged as commands. */
  substitutions: string[];
}

/** What a substitution leaves in a word: opaque, never a path the policy would match. */
export const SUBST_MARK = "\u2063SUBST\u2063";
/** A `$` that the shell keeps literally (quoted or escaped); normalization strips U+2064. */
export const LIT_DOLLAR = "\u2064";
const lit = (text: string) => text.replaceAll("$", LIT_DOLLAR);

function readBalanced(s: string, start: number, open: string, close: string): number {
  // s[start] is just after the opening char; returns the index of the matching close.
  let depth = 1;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j === -1) return s.length;
      i = j;
      continue;
    }
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return s.length;
}

function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|[0-7]{1,3}|.)/g,
    (_m, e: string) => {
      if (e[0] === "x" || e[0] === "u") return String.fromCodePoint(parseInt(e.slice(1), 16));
      if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
      return ({ n: "\n", t: "\t", r: "\r", a: "", b: "", e: "", f: "", v: "" } as Record<
        string,
        string
      >)[e] ?? e;
    },
  );
}

/** Parse a (normalized) command line into pipelines of simple commands. */
export function parseShell(s: string): ParsedLine {
  const pipelines: SimpleCommand[][] = [];
  const substitutions: string[] = [];
  let pipeline: SimpleCommand[] = [];
  let cmd: SimpleCommand = { argv: [], redirects: [], heredocs: [], hereStrings: [] };
  let word = "";
  let inWord = false;
  let pendingRedirect: string | null = null;
  let pendingHeredocs: Array<{ cmd: SimpleCommand; delim: string; strip: boolean }> = [];
  let heredocDelimNext: { strip: boolean } | null = null;

  const endWord = () => {
    if (!inWord) return;
    if (heredocDelimNext) {
      pendingHeredocs.push({ cmd, delim: word, strip: heredocDelimNext.strip });
      heredocDelimNext = null;
    } else if (pendingRedirect === "<<<") {
      cmd.hereStrings.push(word);
      pendingRedirect = null;
    } else if (pendingRedirect) {
      cmd.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = null;
    } else cmd.argv.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (cmd.argv.length || cmd.redirects.length || cmd.heredocs.length || cmd.hereStrings.length) {
      pipeline.push(cmd);
    }
    cmd = { argv: [], redirects: [], heredocs: [], hereStrings: [] };
    pendingRedirect = null;
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length) pipelines.push(pipeline);
    pipeline = [];
  };
  const substitution = (inner: string) => {
    substitutions.push(inner);
    word += SUBST_MARK;
    inWord = true;
  };

  let i = 0;
  while (i < s.length) {
    const c = s[i];
    const next = s[i + 1];
    if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "\n") {
      endPipeline();
      i++;
      // Heredoc bodies follow the line that declared them.
      for (const h of pendingHeredocs) {
        const lines: string[] = [];
        while (i < s.length) {
          let end = s.indexOf("\n", i);
          if (end === -1) end = s.length;
          const line = s.slice(i, end);
          i = end + 1;
          if ((h.strip ? line.replace(/^\t+/, "") : line) === h.delim) break;
          lines.push(line);
        }
        h.cmd.heredocs.push(lines.join("\n"));
      }
      pendingHeredocs = [];
    } else if (c === "#" && !inWord) {
      while (i < s.length && s[i] !== "\n") i++;
    } else if (c === "\\") {
      if (i + 1 < s.length) word += lit(s[i + 1]);
      inWord = true;
      i += 2;
    } else if (c === "'") {
      const j = s.indexOf("'", i + 1);
      word += lit(s.slice(i + 1, j === -1 ? s.length : j));
      inWord = true;
      i = j === -1 ? s.length : j + 1;
    } else if (c === "$" && next === "'") {
      let j = i + 2;
      while (j < s.length && s[j] !== "'") j += s[j] === "\\" ? 2 : 1;
      word += lit(decodeAnsiC(s.slice(i + 2, Math.min(j, s.length))));
      inWord = true;
      i = j + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === "\\" && i + 1 < s.length && '"\\$`\n'.includes(s[i + 1])) {
          word += lit(s[i + 1]);
          i += 2;
        } else if (s[i] === "$" && s[i + 1] === "(" && s[i + 2] !== "(") {
          const end = readBalanced(s, i + 2, "(", ")");
          substitution(s.slice(i + 2, end));
          i = end + 1;
        } else if (s[i] === "`") {
          const end = s.indexOf("`", i + 1);
          substitution(s.slice(i + 1, end === -1 ? s.length : end));
          i = end === -1 ? s.length : end + 1;
        } else {
          word += s[i];
          i++;
        }
      }
      i++;
    } else if (c === "$" && next === "(") {
      if (s[i + 2] === "(") {
        const end = readBalanced(s, i + 3, "(", ")");
        // Arithmetic runs the command substitutions inside it: judge them too.
        const inner = s.slice(i + 3, end);
        if (/\$\(|`/.test(inner)) substitutions.push(inner);
        word += "0";
        inWord = true;
        i = end + 2;
      } else {
        const end = readBalanced(s, i + 2, "(", ")");
        substitution(s.slice(i + 2, end));
        i = end + 1;
      }
    } else if (c === "`") {
      const end = s.indexOf("`", i + 1);
      substitution(s.slice(i + 1, end === -1 ? s.length : end));
      i = end === -1 ? s.length : end + 1;
    } else if ((c === "<" || c === ">") && next === "(") {
      endWord();
      const end = readBalanced(s, i + 2, "(", ")");
      substitution(s.slice(i + 2, end));
      endWord();
      i = end + 1;
    } else if (c === ";" || c === "&" || c === "|" || c === "(" || c === ")") {
      if (c === "&" && next === ">") {
        endWord();
        const op = s[i + 2] === ">" ? "&>>" : "&>";
        pendingRedirect = op;
        i += op.length;
        continue;
      }
      if (c === "|" && next !== "|") {
        endCommand();
        i += next === "&" ? 2 : 1;
        continue;
      }
      endPipeline();
      i += (c === "&" && next === "&") || (c === "|" && next === "|") ||
          (c === ";" && next === ";")
        ? 2
        : 1;
    } else if (c === ">" || c === "<") {
      // A word of digits right before is a file-descriptor number, not an argument.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      } else endWord();
      let op = c;
      let j = i + 1;
      if (c === "<" && s[j] === "<") {
        op = "<<";
        j++;
        if (s[j] === "<") {
          op = "<<<";
          j++;
        } else if (s[j] === "-") {
          op = "<<-";
          j++;
        }
      } else if (s[j] === ">" || s[j] === "|" || (c === "<" && s[j] === ">")) {
        op += s[j];
        j++;
      }
      if (s[j] === "&" && op !== "<<<") {
        // fd duplication (2>&1, >&-): no file target.
        j++;
        while (j < s.length && /[\d-]/.test(s[j])) j++;
        i = j;
        continue;
      }
      if (op === "<<" || op === "<<-") heredocDelimNext = { strip: op === "<<-" };
      else pendingRedirect = op;
      i = j;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endPipeline();
  return { pipelines, substitutions };
}
