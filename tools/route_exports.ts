// What a route module exports, read from its source without running it (for the lazy manifest):
// the methods its `handler` answers and whether it default-exports a page component.
import { parse } from "@babel/parser";

export interface RouteExports {
  /** HTTP methods of an object `handler`; ["*"] for a function handler; [] for none. */
  methods: string[];
  page: boolean;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

// deno-lint-ignore no-explicit-any
type Node = any;

/** The exports of one route file's source text. */
export function routeExports(source: string, file: string): RouteExports {
  const ast = parse(source, {
    sourceType: "module",
    plugins: ["typescript", "jsx"],
    sourceFilename: file,
  });
  let methods: string[] = [];
  let page = false;
  for (const stmt of ast.program.body as Node[]) {
    if (stmt.type === "ExportDefaultDeclaration") page = true;
    if (stmt.type !== "ExportNamedDeclaration") continue;
    const decl = stmt.declaration;
    if (decl?.type === "FunctionDeclaration" && decl.id?.name === "handler") methods = ["*"];
    if (decl?.type !== "VariableDeclaration") continue;
    for (const d of decl.declarations as Node[]) {
      if (d.id?.name !== "handler") continue;
      let init = d.init;
      while (init && (init.type === "TSAsExpression" || init.type === "TSSatisfiesExpression")) {
        init = init.expression;
      }
      if (init?.type === "ObjectExpression") {
        methods = (init.properties as Node[])
          .map((p) => p.key?.name ?? p.key?.value)
          .filter((k: unknown): k is string => typeof k === "string" && METHODS.has(k));
      } else if (init) methods = ["*"];
    }
  }
  return { methods, page };
}
