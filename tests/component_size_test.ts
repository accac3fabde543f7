// The size rule for views (tools/component_size.ts): no `.tsx` under islands/, components/ or
// routes/ over 400 lines, no component function over 150. A failure names each offender as
// `file:function:lines`.
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  formatOffender,
  MAX_COMPONENT_LINES,
  MAX_FILE_LINES,
  measureSource,
  measureViews,
  offendersOf,
} from "../tools/component_size.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A component of `body` lines of JSX (plus its signature and closing lines). */
function component(head: string, body: number, tail = "}"): string {
  const rows = Array.from({ length: body }, (_, i) => `      <li>${i}</li>`);
  return `${head}\n  return (\n    <ul>\n${rows.join("\n")}\n    </ul>\n  );\n${tail}\n`;
}

Deno.test("measureSource() finds declared, default and arrow components, not helpers", () => {
  const src = [
    `import { h } from "preact";`,
    component("export function Big() {", 150),
    component("const Arrow = () => {", 3, "};"),
    component("export default function () {", 2),
    component("function helper() {", 200),
    "export const NotAComponent = 3;",
  ].join("\n");
  const size = measureSource("islands/X.tsx", src);
  assertEquals(size.components, [
    { name: "Big", lines: 156 },
    { name: "Arrow", lines: 9 },
    { name: "default", lines: 8 },
  ]);
  assertEquals(offendersOf(size).map(formatOffender), ["islands/X.tsx:Big:156"]);
});

Deno.test("offendersOf() reports a file over 400 lines and each component over 150", () => {
  // The shape of the Composer before its split: one 944-line function in a 1047-line file.
  const src = component("export default function Composer() {", 938) + "\n".repeat(102);
  const size = measureSource("islands/Composer.tsx", src);
  assert(size.lines > MAX_FILE_LINES);
  assertEquals(offendersOf(size).map(formatOffender), [
    `islands/Composer.tsx:(file):${size.lines}`,
    "islands/Composer.tsx:Composer:944",
  ]);
});

Deno.test(`every view keeps within ${MAX_FILE_LINES} lines a file and ${MAX_COMPONENT_LINES} a component`, () => {
  const sizes = measureViews(ROOT);
  assert(
    sizes.some((s) => s.file === join("islands", "Composer.tsx")),
    "the islands were measured",
  );
  const offenders = sizes.flatMap(offendersOf);
  assertEquals(offenders.map(formatOffender), [], "views over the limits (file:function:lines)");
});
