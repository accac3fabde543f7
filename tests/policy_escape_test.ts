// Commands the policy cannot resolve exactly ask, end to end: the model (fake provider) calls
// `terminal` with code decoded at run time and an inline python delete; the real engine emits
// an `approval` for each, a denial leaves the workspace untouched, and "once" really runs it.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { answerApprovals } from "./fixtures/answer_approvals.ts";

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("terminal asks before running computed or inline code; deny keeps src, once runs it", async () => {
  const h = await startHarness();
  try {
    const src = join(h.workspace, "src");
    await Deno.mkdir(src);
    await Deno.writeTextFile(join(src, "app.ts"), "export {};\n");
    const decoded = `bash -c "$(echo ${btoa("rm -rf src")} | base64 -d)"`;
    const inline = `python3 -c "import shutil; shutil.rmtree('src')"`;
    h.fake.enqueue(
      { toolCalls: [{ id: "call_b64", name: "terminal", args: { command: decoded } }] },
      { toolCalls: [{ id: "call_py", name: "terminal", args: { command: inline } }] },
      { toolCalls: [{ id: "call_ok", name: "terminal", args: { command: decoded } }] },
      { text: "done" },
    );
    const { stream_id } = await h.start("tidy the workspace");
    const { asked, res } = await answerApprovals(h, stream_id, src, (n) => n < 2 ? "deny" : "once");
    deepStrictEqual(asked, [
      { command: decoded, keys: ["computed_code"], srcThere: true },
      { command: inline, keys: ["inline_code"], srcThere: true },
      { command: decoded, keys: ["computed_code"], srcThere: true },
    ]);
    const completes = res.events.filter((e) => e.event === "tool_complete").map((e) => e.data);
    deepStrictEqual(completes.map((c) => [c.tool_call_id, c.status]), [
      ["call_b64", "denied"],
      ["call_py", "denied"],
      ["call_ok", "completed"],
    ]);
    // Approved once, the decoded command really deletes src: the policy was right to ask.
    strictEqual(await exists(src), false);
    ok(await exists(h.workspace));
    strictEqual(res.events.at(-1)!.event, "stream_end");
  } finally {
    await h.close();
  }
});
