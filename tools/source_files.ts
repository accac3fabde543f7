// Source files under a folder, for the build tools (manifest, island build, dev watcher).
import { join } from "./paths.ts";

/** `*_test.ts(x)` files are tests, except a route that is literally named so (inject_test). */
function isTestFile(name: string): boolean {
  return /_test\.tsx?$/.test(name) && name !== "inject_test.ts";
}

/** Every file under `dir` whose name matches `match`, tests excluded, sorted; [] if missing. */
export function sourceFiles(dir: string, match = /\.(tsx?|jsx?)$/): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...sourceFiles(p, match));
    else if (match.test(e.name) && !isTestFile(e.name)) out.push(p);
  }
  return out.sort();
}
