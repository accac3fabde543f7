// The shape of lib/ (CONVENTIONS.md "one room per domain"): domain folders with a header, a handful
// of loose files, no import circles, and a visible line between what ships to the browser and what
// runs on the server. Each test names the file and the import at fault.
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { importCircles, importsOf, libGraph } from "../tools/import_graph.ts";
import { sourceFiles } from "../tools/source_files.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Folders whose code runs in the browser (lib/browser) or on both sides (shared, markdown). */
const BROWSER = "lib/browser/";
// lib/i18n is browser-safe but for its server files (catalog.ts reads the catalog, render.ts).
const I18N_SAFE = ["lib/i18n/t.ts", "lib/i18n/locales.ts", "lib/i18n/format_message.ts"];
const BROWSER_SAFE = ["lib/browser/", "lib/shared/", "lib/markdown/", ...I18N_SAFE];
const SHARED = ["lib/shared/", "lib/markdown/"];

function libFiles(under = "lib"): { file: string; text: string }[] {
  return sourceFiles(join(ROOT, under), /\.tsx?$/).map((abs) => ({
    file: relative(ROOT, abs),
    text: Deno.readTextFileSync(abs),
  }));
}

/** Source text without comments, so a comment that mentions `Deno.` is not a use of it. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Problems of one browser-side file: Deno, node:*, or an import outside `allowed` folders. */
export function browserViolations(
  file: string,
  text: string,
  allowed: readonly string[],
): string[] {
  const out: string[] = [];
  const src = code(text);
  if (/\bDeno\s*\./.test(src)) out.push(`${file} uses the Deno global`);
  for (const m of src.matchAll(/(?:from|import)\s*\(?\s*["'](node:[^"']+)["']/g)) {
    out.push(`${file} imports ${m[1]}`);
  }
  for (const target of importsOf(file, src)) {
    if (!target.startsWith("lib/")) continue;
    if (!allowed.some((dir) => target.startsWith(dir))) out.push(`${file} imports ${target}`);
  }
  return out;
}

Deno.test("lib/ holds domain folders and at most five loose files", () => {
  const loose = [...Deno.readDirSync(join(ROOT, "lib"))].filter((e) => e.isFile).map((e) => e.name);
  assert(loose.length <= 5, `loose files in lib/: ${loose.join(", ")}`);
});

Deno.test("every lib/ folder opens with a README.md saying what lives there and who imports it", () => {
  const missing = [...Deno.readDirSync(join(ROOT, "lib"))]
    .filter((e) => e.isDirectory)
    .map((e) => e.name)
    .filter((d) => {
      try {
        return Deno.readTextFileSync(join(ROOT, "lib", d, "README.md")).trim().length < 40;
      } catch {
        return true;
      }
    });
  assertEquals(missing, [], `lib/ folders without a README.md: ${missing.join(", ")}`);
});

Deno.test("lib/ has no import circles", () => {
  const circles = importCircles(libGraph(ROOT));
  assertEquals(circles.map((c) => c.join(" ↔ ")), []);
});

Deno.test("browser code imports nothing from Deno, node:* or a server folder", () => {
  const problems: string[] = [];
  for (const { file, text } of libFiles(BROWSER)) {
    problems.push(...browserViolations(file, text, BROWSER_SAFE));
  }
  for (const dir of SHARED) {
    for (const { file, text } of libFiles(dir)) {
      problems.push(...browserViolations(file, text, [...SHARED, ...I18N_SAFE]));
    }
  }
  for (const file of I18N_SAFE) {
    problems.push(
      ...browserViolations(file, Deno.readTextFileSync(join(ROOT, file)), BROWSER_SAFE),
    );
  }
  assertEquals(problems, []);
});

Deno.test("server folders never import the browser folder", () => {
  const problems: string[] = [];
  for (const { file, text } of libFiles()) {
    if (BROWSER_SAFE.some((dir) => file.startsWith(dir))) continue;
    for (const target of importsOf(file, code(text))) {
      if (target.startsWith(BROWSER)) problems.push(`${file} imports ${target}`);
    }
  }
  assertEquals(problems, []);
});

Deno.test("browserViolations() names each kind of forbidden import", () => {
  const text = [
    'import { x } from "../storage/db.ts";',
    'import { join } from "node:path";',
    "const home = Deno.env.get('HOME');",
    'import { ok } from "../shared/chat_events.ts";',
    "// Deno.exit() in a comment is fine",
  ].join("\n");
  assertEquals(browserViolations("lib/browser/x.ts", text, BROWSER_SAFE), [
    "lib/browser/x.ts uses the Deno global",
    "lib/browser/x.ts imports node:path",
    "lib/browser/x.ts imports lib/storage/db.ts",
  ]);
});
