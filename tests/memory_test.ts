import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { ensureAgentTools, newSessionId, runTurn } from "./fixtures/agent_turn.ts";
import {
  editMemory,
  memoryEntries,
  memoryPromptSection,
  PROMPT_BUDGET,
  readMemory,
} from "../lib/agent/memory.ts";
import { memoryTool } from "../lib/tools/memory_tool.ts";
import type { ToolContext } from "../lib/tools/types.ts";

async function tempState(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "hermes-mem-" });
  return { dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("editMemory() adds, replaces and removes bullet entries", async () => {
  const s = await tempState();
  try {
    await Deno.writeTextFile(join(s.dir, "MEMORY.md"), "# Notes\n- uses deno\n- port 8787\n");
    await editMemory(s.dir, "memory", { action: "add", content: "prefers\nshort answers" });
    await editMemory(s.dir, "memory", {
      action: "replace",
      old_text: "port 8787",
      content: "port 9000",
    });
    await editMemory(s.dir, "memory", { action: "remove", old_text: "deno" });
    strictEqual(
      await readMemory(s.dir, "memory"),
      "# Notes\n- port 9000\n- prefers short answers\n",
    );
    deepStrictEqual(memoryEntries(await readMemory(s.dir, "memory")), [
      "port 9000",
      "prefers short answers",
    ]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("editMemory() explains missing, ambiguous and duplicate entries", async () => {
  const s = await tempState();
  try {
    await editMemory(s.dir, "user", { action: "add", content: "name is Ada" });
    await editMemory(s.dir, "user", { action: "add", content: "Ada likes tea" });
    await rejects(
      editMemory(s.dir, "user", { action: "remove", old_text: "coffee" }),
      /No entry in USER.md contains "coffee"/,
    );
    await rejects(
      editMemory(s.dir, "user", { action: "remove", old_text: "Ada" }),
      /matches 2 entries in USER.md/,
    );
    await rejects(
      editMemory(s.dir, "user", { action: "add", content: "name is Ada" }),
      /already has this entry/,
    );
    await editMemory(s.dir, "user", { action: "remove", old_text: "name is Ada" });
    strictEqual(await readMemory(s.dir, "user"), "- Ada likes tea\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("editMemory() keeps a file within its prompt budget", async () => {
  const s = await tempState();
  try {
    for (let i = 0; (await readMemory(s.dir, "memory")).length < PROMPT_BUDGET - 1200; i++) {
      await editMemory(s.dir, "memory", { action: "add", content: `fact ${i} ${"x".repeat(900)}` });
    }
    await rejects(
      editMemory(s.dir, "memory", { action: "add", content: "y".repeat(1500) }),
      /over its 8000 budget/,
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("concurrent memory adds never lose one another", async () => {
  const s = await tempState();
  try {
    await Promise.all(
      Array.from(
        { length: 25 },
        (_, i) => editMemory(s.dir, "memory", { action: "add", content: `entry ${i}` }),
      ),
    );
    strictEqual(memoryEntries(await readMemory(s.dir, "memory")).length, 25);
  } finally {
    await s.cleanup();
  }
});

Deno.test("memoryPromptSection() clips each file with a note", async () => {
  const s = await tempState();
  try {
    strictEqual(await memoryPromptSection(s.dir), null);
    match((await memoryPromptSection(s.dir, { toolOffered: true }))!, /Use the `memory` tool/);
    const long = Array.from({ length: 400 }, (_, i) => `- line ${i} ${"z".repeat(30)}`).join("\n");
    await Deno.writeTextFile(join(s.dir, "MEMORY.md"), long);
    await Deno.writeTextFile(join(s.dir, "USER.md"), "- is called Ada\n");
    const section = (await memoryPromptSection(s.dir))!;
    match(section, /- line 0 /);
    ok(!section.includes("- line 399 "));
    match(section, /\[… MEMORY\.md truncated: \d+ more characters not shown/);
    match(section, /### About the user \(USER\.md\)\n- is called Ada/);
    ok(section.length < 2 * PROMPT_BUDGET + 1000);
  } finally {
    await s.cleanup();
  }
});

Deno.test("memory tool reports errors as tool errors", async () => {
  const s = await tempState();
  try {
    const tool = memoryTool(s.dir);
    const ctx = {} as ToolContext;
    const added = await tool.execute({ action: "add", target: "memory", content: "a fact" }, ctx);
    strictEqual(added.isError, undefined);
    match(added.output, /MEMORY\.md updated .*\n- a fact$/);
    const missing = await tool.execute({ action: "remove", target: "memory" }, ctx);
    deepStrictEqual([missing.isError, /needs old_text/.test(missing.output)], [true, true]);
    const none = await tool.execute({
      action: "replace",
      target: "user",
      old_text: "x",
      content: "y",
    }, ctx);
    strictEqual(none.isError, true);
    match(none.output, /No entry in USER\.md/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("GET /api/memory and POST /api/memory/write", async () => {
  const app = await createTestApp();
  try {
    // The original's fields, plus (issue 16) SOUL.md and each file's path and mtime.
    const first = (await app.call<Record<string, unknown>>("GET", "/api/memory")).body;
    deepStrictEqual(
      { memory: first.memory, user: first.user, budget: first.budget },
      { memory: "", user: "", budget: PROMPT_BUDGET },
    );
    deepStrictEqual(
      (first.files as Array<{ section: string; path: string; exists: boolean }>).map((
        f,
      ) => [f.section, f.path, f.exists]),
      [
        ["memory", join(app.stateDir, "MEMORY.md"), false],
        ["user", join(app.stateDir, "USER.md"), false],
        ["soul", join(app.stateDir, "SOUL.md"), false],
      ],
    );
    const res = await app.call("POST", "/api/memory/write", {
      section: "user",
      content: "- likes tea\n",
    });
    strictEqual(res.status, 200);
    deepStrictEqual(res.body, {
      ok: true,
      section: "user",
      path: join(app.stateDir, "USER.md"),
      content: "- likes tea\n",
    });
    strictEqual(
      (await app.call<{ user: string }>("GET", "/api/memory")).body.user,
      "- likes tea\n",
    );
    strictEqual(await Deno.readTextFile(join(app.stateDir, "USER.md")), "- likes tea\n");
    // SOUL.md is written in the profile home and listed with its mtime; the workspace's
    // AGENTS.md shows for a session.
    strictEqual(
      (await app.call("POST", "/api/memory/write", { section: "soul", content: "Be kind." }))
        .status,
      200,
    );
    await Deno.writeTextFile(join(app.workspace, "AGENTS.md"), "Use tabs.");
    const sid =
      (await app.call<{ session: { session_id: string } }>("POST", "/api/session/new", {}))
        .body.session.session_id;
    const withSession = await app.call<{
      soul: string;
      files: Array<{ section: string; name: string; mtime: number | null; content: string }>;
    }>("GET", `/api/memory?session_id=${sid}`);
    strictEqual(withSession.body.soul, "Be kind.");
    const soul = withSession.body.files.find((f) => f.section === "soul")!;
    strictEqual(typeof soul.mtime, "number");
    const project = withSession.body.files.find((f) => f.section === "project")!;
    deepStrictEqual([project.name, project.content], ["AGENTS.md", "Use tabs."]);
    strictEqual((await app.call("GET", "/api/memory?profile=nope")).status, 404);
    const bad = await app.call<{ error: string }>("POST", "/api/memory/write", {
      section: "other",
      content: "",
    });
    strictEqual(bad.status, 400);
    match(bad.body.error, /section/);
    strictEqual((await app.call("POST", "/api/memory/write", { section: "memory" })).status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("GET /api/memory has the original's flat paths and mtimes; SOUL.md round-trips", async () => {
  const app = await createTestApp();
  try {
    type Memory = Record<string, string | number | null>;
    const before = (await app.call<Memory>("GET", "/api/memory")).body;
    deepStrictEqual(
      [before.memory_path, before.user_path, before.soul_path],
      [
        join(app.stateDir, "MEMORY.md"),
        join(app.stateDir, "USER.md"),
        join(app.stateDir, "SOUL.md"),
      ],
    );
    ok(!String(before.soul_path).includes("/memories/"), "SOUL.md sits in the home, not memories/");
    deepStrictEqual([before.memory_mtime, before.user_mtime, before.soul_mtime], [
      null,
      null,
      null,
    ]);

    const soul = "# Test Soul\nWritten by the round trip.";
    const wrote = await app.call<Memory>("POST", "/api/memory/write", {
      section: "soul",
      content: soul,
    });
    strictEqual(wrote.status, 200);
    deepStrictEqual([wrote.body.ok, wrote.body.section], [true, "soul"]);
    strictEqual(wrote.body.path, join(app.stateDir, "SOUL.md"));
    await app.call("POST", "/api/memory/write", { section: "memory", content: "- a fact\n" });

    const after = (await app.call<Memory>("GET", "/api/memory")).body;
    strictEqual(after.soul, soul);
    strictEqual(after.memory, "- a fact\n");
    strictEqual(after.user, "", "writing SOUL.md leaves USER.md alone");
    strictEqual(typeof after.soul_mtime, "number");
    strictEqual(typeof after.memory_mtime, "number");
    strictEqual(after.user_mtime, null);
  } finally {
    await app.close();
  }
});

Deno.test("memory reaches the model and the memory tool works end to end", async () => {
  const fake = startFakeProvider();
  const app = await createTestApp({
    configYaml: `model: {provider: custom, base_url: ${fake.baseUrl}, default: fake-model}\n`,
  });
  try {
    ensureAgentTools(app);
    await app.call("POST", "/api/memory/write", {
      section: "memory",
      content: "- the repo uses Deno 2\n",
    });
    await app.call("POST", "/api/memory/write", { section: "user", content: "- name: Ada\n" });
    const sid = await newSessionId(app);
    fake.enqueue(
      {
        toolCalls: [{
          name: "memory",
          args: { action: "add", target: "user", content: "likes tea" },
        }],
      },
      { text: "noted" },
    );
    const events = await runTurn(app, sid, "I like tea");
    const done = events.find((e) => e.event === "tool_complete")!;
    strictEqual(done.data.name, "memory");
    strictEqual(done.data.is_error, false);
    const system = String(fake.chatRequests[0].body.messages[0].content);
    match(system, /### What you learned \(MEMORY\.md\)\n- the repo uses Deno 2/);
    match(system, /### About the user \(USER\.md\)\n- name: Ada/);
    match(system, /Use the `memory` tool/);
    strictEqual(
      (await app.call<{ user: string }>("GET", "/api/memory")).body.user,
      "- name: Ada\n- likes tea\n",
    );
    fake.enqueue({ text: "hi Ada" });
    await runTurn(app, sid, "hello again");
    match(String(fake.chatRequests.at(-1)!.body.messages[0].content), /- likes tea/);
  } finally {
    await app.close();
    await fake.close();
  }
});
