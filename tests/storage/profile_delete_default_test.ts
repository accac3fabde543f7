// POST /api/profile/delete without a `sessions` choice deletes the profile, as the original
// does (it used to answer 409 until told what to do with the sessions). The profile's sessions
// are kept and go on under default: listed, opened, and their messages still there.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";

Deno.test("profile delete without a sessions choice deletes and keeps its sessions", async () => {
  const h = await startHarness();
  try {
    strictEqual((await h.call("POST", "/api/profile/create", { name: "work" })).status, 200);
    strictEqual((await h.call("POST", "/api/profile/switch", { name: "work" })).status, 200);
    const sid = await h.newSession();
    h.sessionId = sid;
    h.fake.enqueue({ text: "kept answer" });
    await h.stream((await h.start("keep me")).stream_id);

    const deleted = await h.call("POST", "/api/profile/delete", { name: "work" });
    strictEqual(deleted.status, 200, JSON.stringify(deleted.body));
    deepStrictEqual(deleted.body, { ok: true, name: "work", moved: 1, deleted: 0 });

    const profiles = await h.call("GET", "/api/profiles");
    deepStrictEqual(profiles.body.profiles.map((p: { name: string }) => p.name), ["default"]);
    strictEqual(profiles.body.active, "default");

    const kept = await h.call("GET", `/api/session?session_id=${sid}`);
    strictEqual(kept.status, 200, "the session is kept");
    strictEqual(kept.body.session.messages.length, 2, "with its messages");
    const listed = await h.call("GET", "/api/sessions?profile=default&limit=50");
    strictEqual(
      listed.body.sessions.some((s: { session_id: string }) => s.session_id === sid),
      true,
      "it is listed under default",
    );
    // It still runs, now with default's settings.
    h.fake.enqueue({ text: "still here" });
    await h.stream((await h.start("again")).stream_id);

    strictEqual((await h.call("POST", "/api/profile/delete", { name: "work" })).status, 404);
    strictEqual((await h.call("POST", "/api/profile/delete", { name: "default" })).status, 400);
  } finally {
    await h.close();
  }
});
