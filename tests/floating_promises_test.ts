// Every async call of the server is awaited, kept, or visibly let go (`void`): storage calls are
// promises (issue 28) and a forgotten `await` is a write that lands late or fails unheard, or a
// condition that is always true. tools/check_floating_promises.ts reads the code with the
// TypeScript checker; this test fails on any finding, naming file and line.
import { deepStrictEqual } from "node:assert/strict";
import { findFloatingPromises, SERVER_CODE } from "../tools/check_floating_promises.ts";

Deno.test("the server awaits every promise of its own async functions", () => {
  const findings = findFloatingPromises(SERVER_CODE);
  deepStrictEqual(findings.map((f) => `${f.file}:${f.line}: ${f.why}: ${f.text}`), []);
});

Deno.test("the check finds a forgotten await and a promise used as a condition", async () => {
  const dir = await Deno.makeTempDir({
    dir: new URL("..", import.meta.url).pathname,
    prefix: ".fp-",
  });
  try {
    await Deno.writeTextFile(
      `${dir}/sample.ts`,
      `async function save(): Promise<void> {}
async function enabled(): Promise<boolean> { return true; }
export async function handler() {
  save();
  void save();
  await save();
  if (enabled()) return 1;
  if (await enabled()) return 2;
  return !enabled();
}
`,
    );
    const found = findFloatingPromises([dir]).map((f) => `${f.line}: ${f.why}`);
    deepStrictEqual(found, [
      "4: a promise nobody awaits",
      "7: a promise used as a condition (always true)",
      "9: a promise used as a condition (always true)",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
