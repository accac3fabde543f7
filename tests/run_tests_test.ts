// The test runner's own reading of a run (tools/run_tests.ts): counts from deno test's real
// output, every ignored test named with the reason its file printed, the plain closing line, and
// a skip that fails the run under CI=true but not outside it.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type LaneResult, parseLaneOutput, report } from "../tools/run_tests.ts";

const SKIP_URL = new URL("./fixtures/skip.ts", import.meta.url).href;

/** Run `deno test` on one file written for the occasion; its combined output. */
async function denoTestOutput(source: string): Promise<{ text: string; code: number }> {
  const dir = await Deno.makeTempDir({ prefix: "hermes-runner-" });
  try {
    const file = join(dir, "sample_test.ts");
    await Deno.writeTextFile(file, source);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "--no-config", "-A", "--parallel", file],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { text: dec.decode(out.stdout) + dec.decode(out.stderr), code: out.code };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const SAMPLE = `
import { needs, skipWhen } from "${SKIP_URL}";
Deno.test("runs", () => {});
Deno.test(needs("Chromium is not installed at /nonexistent", { name: "needs a browser", fn() {} }));
Deno.test("has steps", async (t) => {
  await t.step("first", () => {});
  await t.step({ name: "second", ignore: skipWhen("no aarch64 headers", "second"), fn() {} });
});
Deno.test(needs(null, { name: "needs nothing missing", fn() {} }));
`;

Deno.test("the runner counts a real run and names each skipped test with its reason", async () => {
  const { text, code } = await denoTestOutput(SAMPLE);
  strictEqual(code, 0, text);
  const parsed = parseLaneOutput("sample", text);
  strictEqual(parsed.summarized, true);
  strictEqual(parsed.passed, 3);
  strictEqual(parsed.failed, 0);
  strictEqual(parsed.ignored, 1);
  deepStrictEqual(parsed.steps, { passed: 1, failed: 0, ignored: 1 });
  strictEqual(parsed.reasons.get("needs a browser"), "Chromium is not installed at /nonexistent");
  strictEqual(parsed.ignoredTests.length, 2, parsed.ignoredTests.join("\n"));

  const lane: LaneResult = { ...parsed, code, seconds: 1 };
  const outside = report([lane], false, true);
  strictEqual(outside.code, 0, "outside CI a skip is reported, not failed");
  strictEqual(outside.lines.at(-1), "3 passed, 0 failed, 2 skipped");
  const listed = outside.lines.join("\n");
  ok(listed.includes("needs a browser: Chromium is not installed at /nonexistent"), listed);
  ok(listed.includes("second: no aarch64 headers"), listed);

  const ci = report([lane], true, true);
  strictEqual(ci.code, 1, "under CI=true a skip fails the run");
  ok(ci.lines.some((l) => l.startsWith("CI=true: 2 skipped")), ci.lines.join("\n"));
  strictEqual(ci.lines.at(-1), "3 passed, 0 failed, 2 skipped");
});

Deno.test("a lane that failed, crashed before its summary, or a failed type-check fails the run", async () => {
  const { text, code } = await denoTestOutput(
    `Deno.test("breaks", () => { throw new Error("no"); });`,
  );
  const failed: LaneResult = { ...parseLaneOutput("a", text), code, seconds: 1 };
  strictEqual(failed.failed, 1);
  strictEqual(report([failed], false, true).code, 1);

  const crashed: LaneResult = {
    ...parseLaneOutput("b", "error: Module not found"),
    code: 1,
    seconds: 0,
  };
  const r = report([crashed], false, true);
  strictEqual(r.code, 1);
  strictEqual(r.lines.at(-1), "0 passed, 1 failed, 0 skipped");

  strictEqual(report([], false, false).lines.at(-1), "0 passed, 1 failed, 0 skipped");
  strictEqual(report([], false, false).code, 1);
});
