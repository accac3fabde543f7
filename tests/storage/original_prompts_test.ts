// Saved prompts in the original's shape beside ours: POST /api/prompts {label, text} answers
// {ok, prompt: {id, label, text, created_at}} (it used to be a 400), always as a new prompt;
// GET lists the same fields; DELETE /api/prompts {id} deletes, and a repeat is not an error.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";

interface Listed {
  id: string;
  label: string;
  text: string;
  name: string;
  content: string;
}

Deno.test("POST /api/prompts {label, text} saves in the original's shape", async () => {
  const h = await startHarness();
  try {
    const saved = await h.call("POST", "/api/prompts", {
      label: "Review",
      text: "  Review this diff for bugs.  ",
    });
    strictEqual(saved.status, 200, JSON.stringify(saved.body));
    strictEqual(saved.body.ok, true);
    const p = saved.body.prompt;
    strictEqual(p.id, "Review");
    strictEqual(p.label, "Review");
    strictEqual(p.text, "Review this diff for bugs.", "the text is trimmed, as the original does");
    strictEqual(typeof p.created_at, "number");
    ok(p.created_at > 1e9 && p.created_at < 1e11, "created_at is in seconds");

    // The same label again is a second prompt, not a replacement.
    const again = await h.call("POST", "/api/prompts", { label: "Review", text: "Second one" });
    strictEqual(again.status, 200);
    strictEqual(again.body.prompt.id, "Review 2");
    // No label: named from the text's start; characters our names refuse become spaces.
    const unlabelled = await h.call("POST", "/api/prompts", { text: "Fix: the {{file}} tests!" });
    strictEqual(unlabelled.body.prompt.label, "Fix the file tests");
    deepStrictEqual(unlabelled.body.prompt.variables, ["file"]);

    const list = await h.call("GET", "/api/prompts");
    const byId = new Map<string, Listed>(list.body.prompts.map((x: Listed) => [x.id, x]));
    deepStrictEqual([...byId.keys()].sort(), ["Fix the file tests", "Review", "Review 2"]);
    strictEqual(byId.get("Review")!.text, "Review this diff for bugs.");
    strictEqual(byId.get("Review 2")!.content, "Second one", "ours and the original's fields");

    // Bad input: a clear 400, nothing saved.
    for (const body of [{ label: "x" }, { label: "x", text: "   " }, { text: 5 }]) {
      const bad = await h.call("POST", "/api/prompts", body);
      strictEqual(bad.status, 400, JSON.stringify(body));
      ok(String(bad.body.error).includes("text"), bad.body.error);
    }
    strictEqual((await h.call("GET", "/api/prompts")).body.prompts.length, 3);
    // Our own shape still works and replaces by name.
    const ours = await h.call("POST", "/api/prompts", { name: "Review", content: "Replaced" });
    strictEqual(ours.body.prompt.text, "Replaced");
    strictEqual((await h.call("GET", "/api/prompts")).body.prompts.length, 3);
  } finally {
    await h.close();
  }
});

Deno.test("DELETE /api/prompts {id} deletes, as the original names it", async () => {
  const h = await startHarness();
  try {
    const a = (await h.call("POST", "/api/prompts", { label: "One", text: "first" })).body.prompt;
    await h.call("POST", "/api/prompts", { label: "Two", text: "second" });
    await h.call("POST", "/api/prompts", { label: "Three", text: "third" });

    const del = await h.call("DELETE", "/api/prompts", { id: a.id });
    strictEqual(del.status, 200, JSON.stringify(del.body));
    strictEqual(del.body.ok, true);
    strictEqual(del.body.deleted, true);
    const repeat = await h.call("DELETE", "/api/prompts", { id: a.id });
    deepStrictEqual({ status: repeat.status, ...repeat.body }, {
      status: 200,
      ok: true,
      deleted: false,
    });
    strictEqual((await h.call("DELETE", "/api/prompts?id=Two")).status, 200);
    strictEqual((await h.call("DELETE", "/api/prompts", {})).status, 400, "id is required");

    const left = (await h.call("GET", "/api/prompts")).body.prompts.map((p: Listed) => p.id);
    deepStrictEqual(left, ["Three"]);
  } finally {
    await h.close();
  }
});
