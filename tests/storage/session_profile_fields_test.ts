// A session's profile and personality are part of its session object (the original's
// Session.compact() carries both) in every answer that carries session rows: new, one session,
// update, the unpaged and paged lists and search. Unset, both are null.
import { strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";

interface Row {
  session_id: string;
  profile: string | null;
  personality: string | null;
}

Deno.test("session objects carry profile and personality (null when unset)", async () => {
  const h = await startHarness({
    yaml: "agent:\n  personalities:\n    terse: Answer in one sentence.\n",
  });
  try {
    const plain = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    strictEqual(plain.body.session.profile, null, "a default session has no profile");
    strictEqual(plain.body.session.personality, null);

    strictEqual(
      (await h.call("POST", "/api/profile/create", { name: "work", personality: "terse" })).status,
      200,
    );
    strictEqual((await h.call("POST", "/api/profile/switch", { name: "work" })).status, 200);
    const created = await h.call("POST", "/api/session/new", {});
    strictEqual(created.status, 200);
    const sid = created.body.session.session_id as string;
    strictEqual(created.body.session.profile, "work", "session/new answers the profile");
    strictEqual(created.body.session.personality, "terse");

    // A personality given to a default session shows too.
    await h.call("POST", "/api/personality/set", { session_id: h.sessionId, name: "terse" });
    await h.call("POST", "/api/session/rename", { session_id: sid, title: "Profiled chat" });
    await h.call("POST", "/api/session/rename", { session_id: h.sessionId, title: "Plain chat" });

    const one = await h.call("GET", `/api/session?session_id=${sid}`);
    strictEqual(one.body.session.profile, "work");
    strictEqual(one.body.session.personality, "terse");

    const updated = await h.call("POST", "/api/session/update", { session_id: sid, model: "m2" });
    strictEqual(updated.status, 200);
    strictEqual(updated.body.session.profile, "work", "session/update answers the profile");
    strictEqual(updated.body.session.personality, "terse");

    const check = (rows: Row[], where: string) => {
      const work = rows.find((r) => r.session_id === sid);
      const plainRow = rows.find((r) => r.session_id === h.sessionId);
      strictEqual(work?.profile, "work", `${where}: profile`);
      strictEqual(work?.personality, "terse", `${where}: personality`);
      strictEqual(plainRow?.profile, null, `${where}: a default session's profile is null`);
      strictEqual(plainRow?.personality, "terse", `${where}: the personality it was given`);
    };
    check((await h.call("GET", "/api/sessions")).body.sessions, "unpaged list");
    check((await h.call("GET", "/api/sessions")).body.sessions, "unpaged list, cached");
    check((await h.call("GET", "/api/sessions?limit=10")).body.sessions, "paged list");
    check((await h.call("GET", "/api/sessions/search?q=chat")).body.sessions, "search");
  } finally {
    await h.close();
  }
});
