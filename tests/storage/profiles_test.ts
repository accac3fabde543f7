// Profiles over the API and through the engine: create (config.yaml keeps its comments), switch,
// new chats take the active profile's model, personality and files (its own SOUL.md and
// MEMORY.md reach the prompt, not default's), running sessions keep theirs, delete moves or
// deletes the sessions as asked, `default` cannot go.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "../fixtures/engine_harness.ts";
import { sql } from "../../lib/storage/db.ts";

Deno.test("profiles: create, switch, per-profile files and defaults, delete with sessions", async () => {
  const h = await startHarness({
    yaml: "# keep this comment\nagent:\n  personalities:\n    terse: Answer in one sentence.\n",
  });
  try {
    const initial = await h.call("GET", "/api/profiles");
    deepStrictEqual(initial.body.profiles.map((p: { name: string }) => p.name), ["default"]);
    strictEqual(initial.body.active, "default");

    strictEqual((await h.call("POST", "/api/profile/create", { name: "../x" })).status, 400);
    strictEqual((await h.call("POST", "/api/profile/create", { name: "default" })).status, 409);
    const created = await h.call("POST", "/api/profile/create", {
      name: "work",
      model: "fake-model-large",
      personality: "terse",
    });
    strictEqual(created.status, 200);
    strictEqual(created.body.profile.model, "fake-model-large");
    const config = await Deno.readTextFile(h.app.ctx.config.configPath);
    ok(config.includes("# keep this comment"), "the comment survives");
    ok(/profiles:\n\s+work:\n\s+model: fake-model-large/.test(config), config);

    // Each profile has its own memory and persona.
    await Deno.writeTextFile(join(h.stateDir, "MEMORY.md"), "- DEFAULT-MEMORY-ENTRY\n");
    const home = created.body.profile.path as string;
    await Deno.writeTextFile(join(home, "MEMORY.md"), "- WORK-MEMORY-ENTRY\n");
    await Deno.writeTextFile(join(home, "SOUL.md"), "You are WORK-SOUL.");

    strictEqual((await h.call("POST", "/api/profile/switch", { name: "nope" })).status, 404);
    const sw = await h.call("POST", "/api/profile/switch", { name: "work" });
    deepStrictEqual(sw.body, { ok: true, active: "work" });
    strictEqual((await h.call("GET", "/api/profile/active")).body.name, "work");

    const sid = await h.newSession();
    const s = await h.app.ctx.db.get<Record<string, string>>(
      sql`SELECT profile, model, personality FROM sessions WHERE session_id = ${sid}`,
    );
    deepStrictEqual({ ...s }, { profile: "work", model: "fake-model-large", personality: "terse" });

    h.fake.enqueue({ text: "ok" });
    const started = await h.call("POST", "/api/chat/start", { session_id: sid, message: "hi" });
    await h.stream(started.body.stream_id);
    const system = JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages[0]);
    ok(system.includes("WORK-SOUL") && system.includes("WORK-MEMORY-ENTRY"), system.slice(0, 400));
    ok(!system.includes("DEFAULT-MEMORY-ENTRY"), "default's memory must not leak into work");
    ok(system.includes("Answer in one sentence."), "the profile's personality applies");
    strictEqual(h.fake.chatRequests.at(-1)!.body.model, "fake-model-large");

    // The harness session was created under default and stays there.
    h.fake.enqueue({ text: "ok" });
    const run = await h.start("hello");
    await h.stream(run.stream_id);
    const sys2 = JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages[0]);
    ok(sys2.includes("DEFAULT-MEMORY-ENTRY") && !sys2.includes("WORK-SOUL"));

    const listed = await h.call("GET", "/api/profiles");
    const work = listed.body.profiles.find((p: { name: string }) => p.name === "work");
    strictEqual(work.session_count, 1);
    strictEqual(work.is_active, true);

    strictEqual((await h.call("POST", "/api/profile/delete", { name: "default" })).status, 400);
    // An unknown choice is refused before anything changes (with no choice at all the sessions
    // move to default, as the original keeps them: tests/storage/profile_delete_default_test.ts).
    const refused = await h.call("POST", "/api/profile/delete", { name: "work", sessions: "keep" });
    strictEqual(refused.status, 400);
    ok(String(refused.body.error).includes("sessions"), refused.body.error);
    const deleted = await h.call("POST", "/api/profile/delete", { name: "work", sessions: "move" });
    deepStrictEqual(deleted.body, { ok: true, name: "work", moved: 1, deleted: 0 });
    const after = await h.call("GET", "/api/profiles");
    deepStrictEqual(after.body.profiles.map((p: { name: string }) => p.name), ["default"]);
    strictEqual(after.body.active, "default");
    ok(
      (await Deno.readTextFile(join(home, "MEMORY.md"))).includes("WORK-MEMORY-ENTRY"),
      "a deleted profile's files stay on disk",
    );
  } finally {
    await h.close();
  }
});
