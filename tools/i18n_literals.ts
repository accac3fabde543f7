// The catalog rule (lib/i18n): no text a person reads is written in a view. This finds English
// (any letters) written where it would be shown: JSX text, UI attributes (title, aria-label,
// placeholder, alt, label), strings a browser module puts in textContent/title/placeholder,
// setAttribute, alert/confirm/prompt and el() children. A string passed to a call (t("key"))
// or compared (x === "ok") is not shown, so it is not reported. A line may opt out with a
// `// i18n-ignore: <why>` comment on it or just above it (brand marks, code samples).
// `deno run --allow-read tools/i18n_literals.ts [file…]` prints `file:line: "text"` for each
// and exits 1 when there is one; with no file it scans every view and browser module.
import { parse } from "@babel/parser";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./source_files.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The folders whose files render UI: views, and the modules that run in the browser. */
export const UI_DIRS = ["components", "islands", "routes", "lib/browser"];

const UI_ATTRS = new Set([
  "title",
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "aria-valuetext",
  "placeholder",
  "alt",
  "label",
]);
const UI_PROPS = new Set([
  "textContent",
  "innerText",
  "title",
  "placeholder",
  "ariaLabel",
  "aria-label",
  "alt",
  "label",
]);
const DIALOGS = new Set(["alert", "confirm", "prompt"]);

export interface Literal {
  file: string;
  line: number;
  text: string;
}

interface Node {
  type: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}
const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string";

/** Two letters in a row, in any script: words, not punctuation, symbols or single keys. */
const WORDS = /\p{L}\p{L}/u;

/**
 * The literal pieces of text `n` would show: a string, a template's fixed parts, either arm
 * of a conditional, the fallback of `a || "x"` / `a ?? "x"`, either side of `+`.
 */
function shownStrings(n: unknown): Node[] {
  if (!isNode(n)) return [];
  switch (n.type) {
    case "StringLiteral":
      return [n];
    case "TemplateLiteral":
      return [
        ...(n.quasis as Node[]).filter((q) =>
          WORDS.test(((q.value as { cooked?: string }).cooked) ?? "")
        ),
        ...(n.expressions as Node[]).flatMap(shownStrings),
      ];
    case "ConditionalExpression":
      return [...shownStrings(n.consequent), ...shownStrings(n.alternate)];
    case "LogicalExpression":
      return shownStrings(n.right);
    case "BinaryExpression":
      return n.operator === "+" ? [...shownStrings(n.left), ...shownStrings(n.right)] : [];
    case "TSAsExpression":
    case "ParenthesizedExpression":
      return shownStrings(n.expression);
    default:
      return [];
  }
}

function textOf(n: Node): string {
  if (n.type === "StringLiteral") return n.value as string;
  if (n.type === "TemplateElement") return (n.value as { cooked?: string }).cooked ?? "";
  if (n.type === "JSXText") return n.value as string;
  return "";
}

const keyName = (k: unknown): string | undefined =>
  isNode(k)
    ? k.type === "Identifier"
      ? k.name as string
      : k.type === "StringLiteral"
      ? k.value as string
      : undefined
    : undefined;

/** Every shown English literal in `text` (a .ts or .tsx module). */
export function findLiterals(file: string, text: string): Literal[] {
  const ast = parse(text, {
    sourceType: "module",
    plugins: file.endsWith(".tsx") ? ["typescript", "jsx"] : ["typescript"],
  }) as unknown as Node & { comments?: Node[] };
  const ignored = new Set<number>();
  for (const c of (ast.comments ?? [])) {
    if (/i18n-ignore/.test(c.value as string)) {
      const line = c.loc!.start.line;
      ignored.add(line);
      ignored.add(line + 1);
    }
  }
  const out: Literal[] = [];
  const report = (nodes: Node[]) => {
    for (const s of nodes) {
      const value = textOf(s).replace(/\s+/g, " ").trim();
      const line = s.loc!.start.line;
      if (WORDS.test(value) && !ignored.has(line)) out.push({ file, line, text: value });
    }
  };
  const visit = (n: Node, parent: Node | null) => {
    switch (n.type) {
      case "JSXText":
        report([n]);
        break;
      case "JSXExpressionContainer":
        if (parent && (parent.type === "JSXElement" || parent.type === "JSXFragment")) {
          report(shownStrings(n.expression));
        }
        break;
      case "JSXAttribute": {
        const name = isNode(n.name) ? (n.name.name as string) : "";
        if (UI_ATTRS.has(name)) {
          const v = n.value;
          report(
            isNode(v) && v.type === "JSXExpressionContainer"
              ? shownStrings(v.expression)
              : shownStrings(v),
          );
        }
        break;
      }
      case "AssignmentExpression": {
        const left = n.left as Node;
        if (left.type === "MemberExpression" && UI_PROPS.has(keyName(left.property) ?? "")) {
          report(shownStrings(n.right));
        }
        break;
      }
      case "ObjectProperty":
        if (UI_PROPS.has(keyName(n.key) ?? "")) report(shownStrings(n.value));
        break;
      case "CallExpression": {
        const callee = n.callee as Node;
        const args = n.arguments as Node[];
        const name = callee.type === "Identifier"
          ? callee.name as string
          : callee.type === "MemberExpression"
          ? keyName(callee.property)
          : undefined;
        if (name && DIALOGS.has(name)) report(shownStrings(args[0]));
        if (name === "setAttribute" && UI_ATTRS.has(keyName(args[0]) ?? "")) {
          report(shownStrings(args[1]));
        }
        if (name === "el") { for (const a of args.slice(2)) report(shownStrings(a)); }
        break;
      }
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === "loc" || key === "leadingComments" || key === "trailingComments") continue;
      if (Array.isArray(value)) {
        for (const v of value) if (isNode(v)) visit(v, n);
      } else if (isNode(value)) visit(value, n);
    }
  };
  visit(ast, null);
  return out;
}

/** Every UI module of the project (views and browser modules), relative to the root. */
export function uiFiles(): string[] {
  // routes/api answers clients with data, not UI: its strings are API text.
  return UI_DIRS.flatMap((d) => sourceFiles(join(ROOT, d), /\.tsx?$/))
    .filter((f) => !relative(ROOT, f).startsWith("routes/api/"))
    .map((f) => relative(ROOT, f)).filter((f) => !f.endsWith(".d.ts"));
}

if (import.meta.main) {
  const files = Deno.args.length ? Deno.args : uiFiles();
  const found = files.flatMap((f) => findLiterals(f, Deno.readTextFileSync(join(ROOT, f))));
  for (const l of found) console.log(`${l.file}:${l.line}: ${JSON.stringify(l.text)}`);
  console.log(`${found.length} literal(s) in ${files.length} file(s)`);
  if (found.length) Deno.exit(1);
}
