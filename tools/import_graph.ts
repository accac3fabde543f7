// The import graph of lib/: every static relative import between lib/ files, and the circles in
// it (strongly connected components with more than one file, or a file importing itself). Used by
// tests/layout_test.ts (no circles) and printable by hand: `deno run --allow-read tools/import_graph.ts`.
import { dirname, join, normalize, relative } from "node:path";
import { sourceFiles } from "./source_files.ts";

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|(?:^|\n)\s*import\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Relative static imports of one source text, as paths relative to the repo root. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    // Type-only imports vanish at run time but still tie the modules together in reading order.
    out.push(normalize(join(dirname(file), spec)));
  }
  return out;
}

/** The graph of `lib/` (paths relative to `root`). */
export function libGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const abs of sourceFiles(join(root, "lib"), /\.tsx?$/)) {
    const file = relative(root, abs);
    const text = Deno.readTextFileSync(abs);
    graph.set(file, importsOf(file, text).filter((p) => p.startsWith("lib/")));
  }
  return graph;
}

/** Circles: each strongly connected component of more than one file (Tarjan). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? ".";
  const circles = importCircles(libGraph(root));
  console.log(`${circles.length} import circles in ${root}/lib`);
  for (const c of circles) console.log("  " + c.join(" ↔ "));
}
