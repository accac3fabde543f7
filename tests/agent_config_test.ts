// The agent's configuration over the API: personalities from config.yaml reach the system prompt
// the provider receives (through the real engine and the fake provider); saved prompts with
// {{variables}} are saved, listed, filled and deleted; bad input gets a clear 4xx.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";

const YAML = `agent:
  personalities:
    mentor: Be patient and explain each step like a senior engineer mentoring a junior.
    reviewer:
      description: Strict code reviewer
      prompt: Review everything with the rigour of a security audit.
`;

Deno.test("personalities: listed from config, set per session, sent in the system prompt", async () => {
  const h = await startHarness({ yaml: YAML });
  try {
    const list = await h.call("GET", "/api/personalities");
    deepStrictEqual(list.body.personalities.map((p: { name: string }) => p.name), [
      "mentor",
      "reviewer",
    ]);
    strictEqual(list.body.personalities[1].description, "Strict code reviewer");

    strictEqual(
      (await h.call("POST", "/api/personality/set", { session_id: h.sessionId })).status,
      400,
    );
    const unknown = await h.call("POST", "/api/personality/set", {
      session_id: h.sessionId,
      name: "pirate",
    });
    strictEqual(unknown.status, 404);
    ok(String(unknown.body.error).includes("mentor"), unknown.body.error);
    strictEqual(
      (await h.call("POST", "/api/personality/set", { session_id: "nope", name: "mentor" })).status,
      404,
    );
    const set = await h.call("POST", "/api/personality/set", {
      session_id: h.sessionId,
      name: "reviewer",
    });
    deepStrictEqual(set.body, {
      ok: true,
      personality: "reviewer",
      prompt: "Review everything with the rigour of a security audit.",
    });

    h.fake.enqueue({ text: "Looks fine." });
    const run = await h.start("Check my patch");
    await h.stream(run.stream_id);
    const system = JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages[0]);
    ok(system.includes("Personality: reviewer"), system.slice(0, 300));
    ok(system.includes("rigour of a security audit"));

    await h.call("POST", "/api/personality/set", { session_id: h.sessionId, name: "" });
    h.fake.enqueue({ text: "ok" });
    const again = await h.start("And now?");
    await h.stream(again.stream_id);
    ok(!JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages[0]).includes("Personality:"));
  } finally {
    await h.close();
  }
});

Deno.test("saved prompts: save, list with variables, fill, replace, delete", async () => {
  const h = await startHarness();
  try {
    const saved = await h.call("POST", "/api/prompts", {
      name: "Explain file",
      content: "Explain {{file}} to a {{ audience }}. Then explain {{file}} again.",
    });
    strictEqual(saved.status, 200);
    deepStrictEqual(saved.body.prompt.variables, ["file", "audience"]);
    strictEqual((await h.call("POST", "/api/prompts", { name: "../x", content: "a" })).status, 400);
    strictEqual(
      (await h.call("POST", "/api/prompts", { name: "empty", content: "  " })).status,
      400,
    );

    const missing = await h.call("POST", "/api/prompts/render", {
      name: "Explain file",
      values: { file: "main.ts" },
    });
    strictEqual(missing.status, 400);
    ok(String(missing.body.error).includes("{{audience}}"), missing.body.error);
    const filled = await h.call("POST", "/api/prompts/render", {
      name: "Explain file",
      values: { file: "main.ts", audience: "new contributor" },
    });
    strictEqual(
      filled.body.text,
      "Explain main.ts to a new contributor. Then explain main.ts again.",
    );

    await h.call("POST", "/api/prompts", { name: "Explain file", content: "Short: {{file}}" });
    const list = await h.call("GET", "/api/prompts");
    strictEqual(list.body.prompts.length, 1);
    strictEqual(list.body.prompts[0].content, "Short: {{file}}");
    strictEqual(
      (await h.call("POST", "/api/prompts/delete", { name: "Explain file" })).status,
      200,
    );
    strictEqual(
      (await h.call("POST", "/api/prompts/delete", { name: "Explain file" })).status,
      404,
    );
    strictEqual(
      (await h.call("POST", "/api/prompts/render", { name: "Explain file", values: {} })).status,
      404,
    );
  } finally {
    await h.close();
  }
});
