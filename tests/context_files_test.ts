// Project context files (AGENTS.md, …) reach the system prompt only through the workspace guard:
// a hostile model that symlinks AGENTS.md to a file outside the workspace (the console's own
// config, with its keys) gets nothing of it into the next request.
import { ok } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";

Deno.test("a symlinked AGENTS.md pointing out of the workspace is not read into the prompt", async () => {
  const h = await startHarness();
  try {
    const outside = join(h.root, "outside-secret.yaml");
    await Deno.writeTextFile(outside, "api_key: sk-OUTSIDE-SECRET-1234\n");
    await Deno.symlink(outside, join(h.workspace, "AGENTS.md"));
    await Deno.writeTextFile(join(h.workspace, "CLAUDE.md"), "Use tabs, not spaces.");
    h.fake.enqueue({ text: "ok" });
    const run = await h.start("hello");
    await h.stream(run.stream_id);
    const system = JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages[0]);
    ok(!system.includes("OUTSIDE-SECRET"), "the outside file leaked into the system prompt");
    ok(system.includes("Use tabs, not spaces."), "a real context file still reaches it");
  } finally {
    await h.close();
  }
});
