import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { ensureAgentTools, newSessionId, runTurn } from "./fixtures/agent_turn.ts";
import {
  forcedSkills,
  listSkills,
  parseUseCommand,
  requireSkillName,
  splitFrontMatter,
} from "../lib/agent/skills.ts";
import { skillTool } from "../lib/tools/skill_tool.ts";
import type { ToolContext } from "../lib/tools/types.ts";

async function writeSkill(root: string, rel: string, text: string): Promise<void> {
  await Deno.mkdir(join(root, rel), { recursive: true });
  await Deno.writeTextFile(join(root, rel, "SKILL.md"), text);
}

const DEPLOY = `---
name: deploy
description: Ship the app to production safely
# a comment the toggle must keep
tags: [ops]
---
# Deploy

1. Run the tests.
2. Tag the release.
`;

async function appWithSkills(configYaml?: string): Promise<TestApp> {
  const app = await createTestApp(configYaml ? { configYaml } : {});
  const state = join(app.stateDir, "skills");
  const hermes = join(app.ctx.config.home, ".hermes", "skills");
  await writeSkill(state, "deploy", DEPLOY);
  await Deno.writeTextFile(join(state, "deploy", "checklist.txt"), "check the dashboards");
  await writeSkill(hermes, "research/web-search", "# Web search\nSearch before answering.\n");
  await writeSkill(hermes, "deploy", "---\ndescription: shadowed copy\n---\nold\n");
  await writeSkill(state, "quiet", "---\ndescription: Disabled one\nenabled: false\n---\nbody\n");
  return app;
}

const noCtx = {} as ToolContext;

Deno.test("listSkills() reads both folders, one category level, console folder first", async () => {
  const app = await appWithSkills();
  try {
    deepStrictEqual(
      (await listSkills(app.ctx.config)).map((s) => [s.name, s.description, s.enabled, s.source]),
      [
        ["deploy", "Ship the app to production safely", true, "state"],
        ["quiet", "Disabled one", false, "state"],
        ["web-search", "Web search", true, "hermes"],
      ],
    );
  } finally {
    await app.close();
  }
});

Deno.test("requireSkillName() refuses paths, traversal and odd names", () => {
  for (const bad of ["../x", "a/b", "A", "", ".hidden", "a..b", "x".repeat(65), "a\\b"]) {
    let threw = false;
    try {
      requireSkillName(bad);
    } catch {
      threw = true;
    }
    ok(threw, bad);
  }
  strictEqual(requireSkillName("web-search.v2_x"), "web-search.v2_x");
});

Deno.test("parseUseCommand() and forcedSkills() pick the skill for the next message", () => {
  deepStrictEqual(parseUseCommand("/use deploy now please"), {
    skill: "deploy",
    rest: "now please",
  });
  strictEqual(parseUseCommand("please /use deploy"), null);
  deepStrictEqual(forcedSkills("/use deploy ship it"), ["deploy"]);
  deepStrictEqual(forcedSkills("ship it", "/use deploy"), ["deploy"]);
  deepStrictEqual(forcedSkills("ship it", "/use deploy and more"), []);
  deepStrictEqual(forcedSkills("ship it", "hello"), []);
  deepStrictEqual(splitFrontMatter("---\na: 1\n---\nbody"), { front: "a: 1", body: "body" });
});

Deno.test("skill routes list, read, save, toggle and delete", async (t) => {
  const app = await appWithSkills();
  try {
    await t.step("GET /api/skills", async () => {
      const res = await app.call<{ skills: { name: string }[] }>("GET", "/api/skills");
      strictEqual(res.status, 200);
      deepStrictEqual(res.body.skills[0], {
        name: "deploy",
        description: "Ship the app to production safely",
        enabled: true,
        source: "state",
        // Issue 16: categories and linked files.
        category: null,
        linked_files: ["checklist.txt"],
      });
    });

    await t.step("GET /api/skills searches and filters by category", async () => {
      const found = await app.call<{ skills: { name: string }[] }>(
        "GET",
        "/api/skills?q=PRODUCTION",
      );
      deepStrictEqual(found.body.skills.map((s) => s.name), ["deploy"]);
      const none = await app.call<{ skills: unknown[] }>("GET", "/api/skills?q=zzzz");
      strictEqual(none.body.skills.length, 0);
      const cats = await app.call<{
        skills: { name: string; category: string | null }[];
        categories: { name: string; count: number }[];
      }>("GET", "/api/skills");
      const categorized = cats.body.skills.filter((s) => s.category);
      for (const s of categorized) {
        const one = await app.call<{ skills: { name: string }[] }>(
          "GET",
          `/api/skills?category=${encodeURIComponent(s.category!)}`,
        );
        strictEqual(one.body.skills.some((x) => x.name === s.name), true);
        strictEqual(one.body.skills.every((x) => x.name !== "deploy"), true);
      }
      strictEqual(
        cats.body.categories.reduce((n, c) => n + c.count, 0),
        cats.body.skills.length,
      );
    });

    await t.step("GET /api/skills/content", async () => {
      const res = await app.call<{ content: string }>("GET", "/api/skills/content?name=deploy");
      strictEqual(res.status, 200);
      strictEqual(res.body.content, DEPLOY);
      strictEqual((await app.call("GET", "/api/skills/content?name=nope")).status, 404);
      strictEqual((await app.call("GET", "/api/skills/content")).status, 400);
      strictEqual((await app.call("GET", "/api/skills/content?name=..%2Fx")).status, 400);
    });

    await t.step("POST /api/skills/save creates, adds front matter, validates", async () => {
      const res = await app.call<{ skill: { description: string } }>("POST", "/api/skills/save", {
        name: "notes",
        content: "# Take notes\nWrite things down.",
      });
      strictEqual(res.status, 200);
      strictEqual(res.body.skill.description, "Take notes");
      // The original's answer names the skill and the SKILL.md it wrote.
      const answer = res.body as unknown as { name: string; path: string };
      strictEqual(answer.name, "notes");
      strictEqual(answer.path, join(app.stateDir, "skills", "notes", "SKILL.md"));
      const text = await Deno.readTextFile(join(app.stateDir, "skills", "notes", "SKILL.md"));
      match(text, /^---\nname: notes\ndescription: "Take notes"\n---\n\n# Take notes/);
      const bad = await app.call<{ error: string }>("POST", "/api/skills/save", {
        name: "x",
        content: "---\ndescription: [unclosed\n---\nbody",
      });
      strictEqual(bad.status, 400);
      match(bad.body.error, /malformed front matter/);
      for (const name of ["../escape", "a/b", "Upper"]) {
        const r = await app.call("POST", "/api/skills/save", { name, content: "x" });
        strictEqual(r.status, 400, name);
      }
      strictEqual((await app.call("POST", "/api/skills/save", { name: "x" })).status, 400);
      ok(!(await exists(join(app.stateDir, "escape"))));
    });

    await t.step("a hermes skill is updated in place", async () => {
      await app.call("POST", "/api/skills/save", {
        name: "web-search",
        content: "---\ndescription: Better search\n---\nnew body\n",
      });
      const path = join(app.ctx.config.home, ".hermes/skills/research/web-search/SKILL.md");
      match(await Deno.readTextFile(path), /Better search/);
      ok(!(await exists(join(app.stateDir, "skills", "web-search"))));
    });

    await t.step("POST /api/skills/toggle keeps the rest of the front matter", async () => {
      const res = await app.call<{ skill: { enabled: boolean } }>("POST", "/api/skills/toggle", {
        name: "deploy",
        enabled: false,
      });
      strictEqual(res.status, 200);
      strictEqual(res.body.skill.enabled, false);
      const text = await Deno.readTextFile(join(app.stateDir, "skills", "deploy", "SKILL.md"));
      match(text, /# a comment the toggle must keep/);
      match(text, /enabled: false/);
      match(text, /1\. Run the tests\./);
      await app.call("POST", "/api/skills/toggle", { name: "deploy", enabled: true });
      const back = await Deno.readTextFile(join(app.stateDir, "skills", "deploy", "SKILL.md"));
      ok(!back.includes("enabled"), back);
      strictEqual(
        (await app.call("POST", "/api/skills/toggle", { name: "nope", enabled: true })).status,
        404,
      );
    });

    await t.step("POST /api/skills/delete", async () => {
      strictEqual((await app.call("POST", "/api/skills/delete", { name: "notes" })).status, 200);
      strictEqual((await app.call("POST", "/api/skills/delete", { name: "notes" })).status, 404);
      ok(!(await exists(join(app.stateDir, "skills", "notes"))));
    });
  } finally {
    await app.close();
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("the skill tool loads bodies and supporting files, and nothing else", async () => {
  const app = await appWithSkills();
  try {
    const tool = skillTool(app.ctx.config);
    const res = await tool.execute({ name: "deploy" }, noCtx);
    strictEqual(res.isError, undefined);
    match(res.output, /^# Skill: deploy\n\n# Deploy\n\n1\. Run the tests\./);
    match(res.output, /Supporting files .*checklist\.txt/);
    ok(!res.output.includes("description:"), "front matter is not repeated");
    deepStrictEqual(await tool.execute({ name: "deploy", file: "checklist.txt" }, noCtx), {
      output: "check the dashboards",
    });
    for (const file of ["../quiet/SKILL.md", "/etc/passwd", "../../../config.yaml"]) {
      const bad = await tool.execute({ name: "deploy", file }, noCtx);
      strictEqual(bad.isError, true, file);
    }
    strictEqual((await tool.execute({ name: "quiet" }, noCtx)).isError, true);
    const unknown = await tool.execute({ name: "nope" }, noCtx);
    strictEqual(unknown.isError, true);
    match(unknown.output, /not found/);
    strictEqual((await tool.execute({ name: "../etc" }, noCtx)).isError, true);
  } finally {
    await app.close();
  }
});

Deno.test("skills reach the model: listed in the prompt, loaded by tool, forced by /use", async () => {
  const fake = startFakeProvider();
  const app = await appWithSkills(
    `model: {provider: custom, base_url: ${fake.baseUrl}, default: fake-model}\n`,
  );
  try {
    ensureAgentTools(app);
    const sid = await newSessionId(app);
    fake.enqueue({ toolCalls: [{ name: "skill", args: { name: "deploy" } }] }, { text: "ok" });
    const events = await runTurn(app, sid, "deploy the app");
    const done = events.find((e) => e.event === "tool_complete")!;
    strictEqual(done.data.name, "skill");
    strictEqual(done.data.is_error, false);
    match(String(done.data.result_preview), /Run the tests/);
    const system = String(fake.chatRequests[0].body.messages[0].content);
    match(system, /## Skills/);
    match(system, /- deploy: Ship the app to production safely/);
    match(system, /- web-search: Web search/);
    ok(!system.includes("quiet"), "disabled skills are not listed");
    ok(!system.includes("Tag the release"), "bodies load on demand only");
    const tools = fake.chatRequests[0].body.tools.map((t: { function: { name: string } }) =>
      t.function.name
    );
    ok(tools.includes("skill") && tools.includes("memory"), tools.join(","));

    fake.enqueue({ text: "using it" });
    await runTurn(app, sid, "/use deploy ship version 2");
    const forced = String(fake.chatRequests.at(-1)!.body.messages[0].content);
    match(forced, /## Skill "deploy" \(the user asked you to use it for this message\)/);
    match(forced, /2\. Tag the release\./);

    fake.enqueue({ text: "plain" });
    await runTurn(app, sid, "thanks");
    ok(!String(fake.chatRequests.at(-1)!.body.messages[0].content).includes("Tag the release"));
  } finally {
    await app.close();
    await fake.close();
  }
});

Deno.test("saveSkill() refuses oversized content", async () => {
  const app = await createTestApp();
  try {
    const { saveSkill } = await import("../lib/agent/skills.ts");
    await rejects(saveSkill(app.ctx.config, "big", "x".repeat(300 * 1024)), /larger than/);
  } finally {
    await app.close();
  }
});

Deno.test("GET /api/skills/usage counts the skills the agent loaded, unused ones at 0", async () => {
  const fake = startFakeProvider();
  const app = await appWithSkills(
    `model: {provider: custom, base_url: ${fake.baseUrl}, default: fake-model}\n`,
  );
  try {
    ensureAgentTools(app);
    const sid = await newSessionId(app);
    for (let i = 0; i < 2; i++) {
      fake.enqueue({ toolCalls: [{ name: "skill", args: { name: "deploy" } }] }, { text: "ok" });
      await runTurn(app, sid, "deploy the app");
    }
    // A failed load (unknown skill) is not a use.
    fake.enqueue({ toolCalls: [{ name: "skill", args: { name: "nope" } }] }, { text: "ok" });
    await runTurn(app, sid, "use nope");
    const res = await app.call<{ usage: Array<{ name: string; count: number }>; total: number }>(
      "GET",
      "/api/skills/usage",
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.usage[0].name, "deploy");
    strictEqual(res.body.usage[0].count, 2);
    strictEqual(res.body.total, 2);
    ok(res.body.usage.some((u) => u.name === "web-search" && u.count === 0));
    ok(!res.body.usage.some((u) => u.name === "nope"));
  } finally {
    await app.close();
    await fake.close();
  }
});

Deno.test("the Skills panel shows categories, linked files and a search box", async () => {
  const app = await appWithSkills();
  try {
    await writeSkill(
      join(app.stateDir, "skills"),
      "ops/rollback",
      "---\ndescription: Roll back a release\n---\nbody\n",
    );
    await writeSkill(
      join(app.stateDir, "skills"),
      "lint",
      "---\ncategory: quality\n---\nLint it.\n",
    );
    const res = await app.request("GET", "/partials/control-center?section=skills");
    strictEqual(res.status, 200);
    const html = await res.text();
    ok(html.includes("data-cc-skill-search"), "a search box once there are several skills");
    ok(/data-skill="rollback"[^>]*data-search="rollback roll back a release ops"/.test(html), html);
    ok(html.includes('<span class="cc-chip">ops</span>'), "the category folder shows");
    ok(html.includes('<span class="cc-chip">quality</span>'), "front matter category shows");
    ok(html.includes("checklist.txt"), "linked files show");
  } finally {
    await app.close();
  }
});
