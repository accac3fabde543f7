// A promise nobody awaits: the check `deno lint` does not have (it has no type information).
// Storage calls are async (issue 28), and a missing `await` in front of one is the bug the type
// checker misses: `run(...)` as a statement (a write that may land after the code that depends
// on it, or fail unheard) or a promise used as a condition (`if (authEnabled(sec))` is always
// true). This walks the server's TypeScript with the compiler's type checker and reports:
//   - a statement calling one of this repository's async functions without awaiting it (nor
//     `void`ing it, nor keeping the promise);
//   - a promise as the condition of if/while/for/?:, or an operand of !, && or ||.
// Imports the checker cannot resolve (npm:, node:) are typed `any` and so never reported: the
// check is about this repository's own async functions. A promise meant to run on its own is
// written `void p` (or ends in `.catch(…)`), which says so. Server code only: the browser's
// fire-and-forget UI work is another matter. Usage: `deno run -A tools/check_floating_promises.ts
// [paths…]` (default: the server's code); exit 1 with one line per finding.
import ts from "typescript";
import { join, relative, resolve } from "node:path";

const root = resolve(new URL("..", import.meta.url).pathname);

function collect(paths: string[]): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    const info = Deno.statSync(path);
    if (info.isFile) {
      if (/\.tsx?$/.test(path) && !path.endsWith(".d.ts")) files.push(path);
      return;
    }
    for (const entry of Deno.readDirSync(path)) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      walk(join(path, entry.name));
    }
  };
  for (const p of paths) walk(resolve(root, p));
  return files;
}

/** What runs on the server: main.ts, the routes and lib/ except what is shipped to the page. */
export const SERVER_CODE = ["main.ts", "routes", "lib"];
const BROWSER_ONLY = /^(lib\/browser|lib\/markdown|islands|components)\//;

export interface Finding {
  file: string;
  line: number;
  text: string;
  why: string;
}

export function findFloatingPromises(paths: string[]): Finding[] {
  const program = ts.createProgram(collect(paths), {
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: "preact",
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];

  const promiseLike = (t: ts.Type) => {
    const name = t.getSymbol()?.getName();
    return name === "Promise" || name === "PromiseLike";
  };
  /** Definitely a promise (a `Promise<x> | null` in a condition is a legitimate "started?"). */
  const isPromise = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    return !type.isUnion() && promiseLike(type);
  };
  /** A call to a function of this repository (not a library's, not `.then`) giving a promise. */
  const callsOwnAsync = (expr: ts.Expression): boolean => {
    const call = ts.isCallExpression(expr) ? expr : null;
    if (!call) return false;
    const declaration = checker.getResolvedSignature(call)?.getDeclaration();
    const file = declaration?.getSourceFile().fileName ?? "";
    if (!file.startsWith(root) || file.includes("node_modules")) return false;
    const type = checker.getTypeAtLocation(call);
    return type.isUnion() ? type.types.some(promiseLike) : promiseLike(type);
  };

  const report = (node: ts.Node, why: string) => {
    const sf = node.getSourceFile();
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
    findings.push({
      file: relative(root, sf.fileName),
      line: line + 1,
      text: node.getText().split("\n")[0].slice(0, 100),
      why,
    });
  };

  const checkCondition = (expr: ts.Expression | undefined) => {
    if (!expr) return;
    const inner = ts.skipPartiallyEmittedExpressions(expr);
    if (ts.isParenthesizedExpression(inner)) return checkCondition(inner.expression);
    if (ts.isBinaryExpression(inner) && isLogical(inner.operatorToken.kind)) {
      checkCondition(inner.left);
      checkCondition(inner.right);
      return;
    }
    if (isPromise(inner)) report(inner, "a promise used as a condition (always true)");
  };

  const visit = (node: ts.Node) => {
    if (ts.isExpressionStatement(node)) {
      const expr = node.expression;
      if (!handled(expr) && callsOwnAsync(expr)) report(expr, "a promise nobody awaits");
    } else if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) {
      checkCondition(node.expression);
    } else if (ts.isForStatement(node)) {
      checkCondition(node.condition);
    } else if (ts.isConditionalExpression(node)) {
      checkCondition(node.condition);
    } else if (
      ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken
    ) {
      checkCondition(node.operand);
    }
    ts.forEachChild(node, visit);
  };

  for (const sf of program.getSourceFiles()) {
    if (
      sf.isDeclarationFile || !sf.fileName.startsWith(root) || sf.fileName.includes("node_modules")
    ) {
      continue;
    }
    if (BROWSER_ONLY.test(relative(root, sf.fileName))) continue;
    visit(sf);
  }
  return findings;
}

/**
 * A statement that visibly took care of its promise: `void p`, `await p`, an assignment
 * (`x = p`, `x ??= p`: kept for later), or a chain ending in `.catch(…)`/`.then(…, onError)`.
 */
function handled(expr: ts.Expression): boolean {
  if (ts.isVoidExpression(expr) || ts.isAwaitExpression(expr)) return true;
  if (ts.isBinaryExpression(expr)) {
    const k = expr.operatorToken.kind;
    if (k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment) return true;
  }
  if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression)) {
    const method = expr.expression.name.text;
    if (method === "catch") return true;
    if (method === "then" && expr.arguments.length >= 2) return true;
  }
  return false;
}

function isLogical(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken;
}

if (import.meta.main) {
  const paths = Deno.args.length ? Deno.args : SERVER_CODE;
  const findings = findFloatingPromises(paths);
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.why}: ${f.text}`);
  console.log(`${findings.length} floating promise(s)`);
  if (findings.length) Deno.exit(1);
}
