// The size rule for views (CONVENTIONS.md): no `.tsx` file under islands/, components/ or routes/
// over 400 lines, no component function over 150. A component is a function whose name starts
// with a capital letter, declared or assigned (as an arrow or function expression) to a const.
// `deno run --allow-read tools/component_size.ts [file.tsx…]` prints `file:function:lines` of each
// offender (every view when no file is named) and exits 1 when there is one.
import { parse } from "@babel/parser";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./source_files.ts";

export const MAX_FILE_LINES = 400;
export const MAX_COMPONENT_LINES = 150;
/** The folders whose `.tsx` files are views. */
export const VIEW_DIRS = ["islands", "components", "routes"];

export interface ComponentSize {
  name: string;
  /** Lines from the `function`/`const` line to the closing brace, both included. */
  lines: number;
}

export interface FileSize {
  file: string;
  lines: number;
  components: ComponentSize[];
}

/** One rule broken: `function` is the component's name, or "(file)" for the whole file. */
export interface Offender {
  file: string;
  function: string;
  lines: number;
}

interface Node {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  [key: string]: unknown;
}

const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string";
const span = (n: Node) => n.loc!.end.line - n.loc!.start.line + 1;
const capital = /^[A-Z]/;

/** Every component in `text` (a TSX module) with its length in lines, in source order. */
export function measureSource(file: string, text: string): FileSize {
  const ast = parse(text, { sourceType: "module", plugins: ["typescript", "jsx"] });
  const components: ComponentSize[] = [];
  const visit = (n: Node, parent: Node | null) => {
    if (n.type === "FunctionDeclaration") {
      const id = n.id as { name: string } | null;
      if (id && capital.test(id.name)) components.push({ name: id.name, lines: span(n) });
      else if (!id && parent?.type === "ExportDefaultDeclaration") {
        components.push({ name: "default", lines: span(n) });
      }
    } else if (n.type === "VariableDeclarator") {
      const id = n.id as Node & { name?: string };
      const init = n.init as Node | null;
      if (
        id.type === "Identifier" && capital.test(id.name ?? "") && init &&
        (init.type === "ArrowFunctionExpression" || init.type === "FunctionExpression")
      ) components.push({ name: id.name!, lines: span(n) });
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === "loc" || key === "leadingComments" || key === "trailingComments") continue;
      if (Array.isArray(value)) value.forEach((v) => isNode(v) && visit(v, n));
      else if (isNode(value)) visit(value, n);
    }
  };
  visit(ast.program as unknown as Node, null);
  const newlines = text.split("\n").length - 1;
  return { file, lines: text.endsWith("\n") ? newlines : newlines + 1, components };
}

/** The rules `size` breaks. */
export function offendersOf(size: FileSize): Offender[] {
  const out: Offender[] = [];
  if (size.lines > MAX_FILE_LINES) {
    out.push({ file: size.file, function: "(file)", lines: size.lines });
  }
  for (const c of size.components) {
    if (c.lines > MAX_COMPONENT_LINES) {
      out.push({ file: size.file, function: c.name, lines: c.lines });
    }
  }
  return out;
}

/** Every `.tsx` view under `root` (paths relative to it), measured. */
export function measureViews(root: string): FileSize[] {
  return VIEW_DIRS.flatMap((dir) => sourceFiles(join(root, dir), /\.tsx$/))
    .map((abs) => measureSource(relative(root, abs), Deno.readTextFileSync(abs)));
}

export const formatOffender = (o: Offender) => `${o.file}:${o.function}:${o.lines}`;

if (import.meta.main) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const sizes = Deno.args.length
    ? Deno.args.map((f) => measureSource(f, Deno.readTextFileSync(f)))
    : measureViews(root);
  const bad = sizes.flatMap(offendersOf);
  const file = sizes.reduce((a, b) => b.lines > a.lines ? b : a);
  const all = sizes.flatMap((s) => s.components.map((c) => ({ file: s.file, ...c })));
  const comp = all.reduce((a, b) => b.lines > a.lines ? b : a, { file: "-", name: "-", lines: 0 });
  console.log(`largest file: ${file.file} (${file.lines} lines)`);
  console.log(`largest component: ${comp.file}:${comp.name} (${comp.lines} lines)`);
  for (const o of bad) console.log(formatOffender(o));
  if (bad.length) {
    console.log(
      `${bad.length} over the limits (${MAX_FILE_LINES} lines a file, ${MAX_COMPONENT_LINES} a component)`,
    );
    Deno.exit(1);
  }
}
