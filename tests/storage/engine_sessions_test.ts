// Runs and sessions: concurrent sessions stay apart (events, workspaces), one active run per
// session (409), request validation, titles on the first turn only, heartbeats, retry.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "../fixtures/engine_harness.ts";
import { consoleToken } from "../../lib/security/request_proof.ts";
import { type RecordedRequest, startFakeProvider } from "../fixtures/fake_provider.ts";
import { tokenText } from "../fixtures/sse_client.ts";

function lastUserText(req: RecordedRequest): string {
  const msgs = req.body.messages as Array<{ role: string; content: unknown }>;
  const last = msgs.findLast((m) => m.role === "user")!;
  return typeof last.content === "string" ? last.content : JSON.stringify(last.content);
}

Deno.test("two sessions streaming at once each see only their own events and workspace", async () => {
  const fake = startFakeProvider({
    respond(req) {
      const who = lastUserText(req).includes("alpha") ? "alpha" : "beta";
      const hasResult = (req.body.messages as Array<{ role: string }>).some((m) =>
        m.role === "tool"
      );
      if (!hasResult) {
        return {
          text: Array.from({ length: 30 }, (_, i) => `${who}${i} `),
          delayMs: 2,
          toolCalls: [{ name: "write_file", args: { path: `${who}.txt`, content: who } }],
        };
      }
      return { text: Array.from({ length: 30 }, (_, i) => `${who}-done${i} `), delayMs: 1 };
    },
  });
  const h = await startHarness({ fake });
  try {
    const otherWs = join(h.root, "other-workspace");
    await Deno.mkdir(otherWs);
    const betaSession = await h.newSession({ workspace: otherWs });
    const alpha = await h.start("alpha task");
    const betaStart = await h.call("POST", "/api/chat/start", {
      session_id: betaSession,
      message: "beta task",
    });
    strictEqual(betaStart.status, 200);
    const [a, b] = await Promise.all([
      h.stream(alpha.stream_id),
      h.stream(betaStart.body.stream_id),
    ]);
    const aText = tokenText(a.events);
    const bText = tokenText(b.events);
    ok(aText.startsWith("alpha0 ") && aText.includes("alpha-done29"), aText);
    ok(!aText.includes("beta"));
    ok(bText.startsWith("beta0 ") && bText.includes("beta-done29"), bText);
    ok(!bText.includes("alpha"));
    deepStrictEqual(a.events.map((e) => e.seq), a.events.map((_, i) => i + 1));
    deepStrictEqual(b.events.map((e) => e.seq), b.events.map((_, i) => i + 1));
    strictEqual(await Deno.readTextFile(join(h.workspace, "alpha.txt")), "alpha");
    strictEqual(await Deno.readTextFile(join(otherWs, "beta.txt")), "beta");
    await Deno.stat(join(h.workspace, "beta.txt")).then(
      () => ok(false, "beta wrote in alpha's workspace"),
      () => {},
    );
    strictEqual(a.events.at(-2)!.data.session.session_id, h.sessionId);
    strictEqual(b.events.at(-2)!.data.session.session_id, betaSession);
  } finally {
    await h.close();
    await fake.close();
  }
});

Deno.test("chat/start validates input and allows one active run per session", async () => {
  const h = await startHarness();
  try {
    // The answer stops after a few words and holds (until cancelled below): the checks that the
    // run is active do not race its end, however slow the machine or the database.
    h.fake.enqueue({ text: Array.from({ length: 50 }, () => "x"), hang: 5 });
    const first = await h.start("first");
    const second = await h.call("POST", "/api/chat/start", {
      session_id: h.sessionId,
      message: "second",
    });
    strictEqual(second.status, 409);
    deepStrictEqual(second.body, {
      error: "session already has an active stream",
      active_stream_id: first.stream_id,
    });
    const retry = await h.call("POST", "/api/session/retry", { session_id: h.sessionId });
    strictEqual(retry.status, 409);
    const runRetry = await h.call("POST", "/api/session/retry", {
      session_id: h.sessionId,
      run: true,
    });
    strictEqual(runRetry.status, 409);
    strictEqual((await h.call("POST", "/api/chat/start", { session_id: h.sessionId })).status, 400);
    const unknown = await h.call("POST", "/api/chat/start", {
      session_id: "0123456789ab",
      message: "x",
    });
    strictEqual(unknown.status, 404);
    strictEqual((await h.call("POST", "/api/chat/start", "not json")).status, 400);
    const tooMany = await h.call("POST", "/api/chat/start", {
      session_id: h.sessionId,
      message: "x",
      attachments: Array.from({ length: 21 }, (_, i) => `f${i}.txt`),
    });
    strictEqual(tooMany.status, 400);
    strictEqual((await h.call("GET", "/api/chat/stream")).status, 400);
    const missing = await h.call("GET", `/api/chat/stream?stream_id=${"0".repeat(32)}`);
    deepStrictEqual([missing.status, missing.body], [404, { error: "stream not found" }]);
    strictEqual(
      (await h.call("GET", `/api/chat/stream?stream_id=${first.stream_id}&after_seq=-1`)).status,
      400,
    );
    const status = await h.call("GET", `/api/chat/stream/status?stream_id=${first.stream_id}`);
    strictEqual(status.body.active, true);
    // The user message was saved before the agent ran, and only once.
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.is_streaming, true);
    strictEqual(session.messages.filter((m: { role: string }) => m.role === "user").length, 1);
    strictEqual(
      (await h.call("GET", `/api/chat/cancel?stream_id=${first.stream_id}`)).status,
      200,
    );
    await h.stream(first.stream_id);
  } finally {
    await h.close();
  }
});

Deno.test("the first turn titles the session; later turns do not", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: "a" }, { text: "b" });
    const long =
      "Please   refactor the\nparser module so that it handles nested quotes, escaped newlines and also unicode";
    const first = await h.start(long);
    ok(first.title.length <= 80);
    match(first.title, /^Please refactor the parser module/);
    const r1 = await h.stream(first.stream_id);
    deepStrictEqual(r1.events[0].data, { session_id: h.sessionId, title: first.title });
    const second = await h.start("another question");
    strictEqual(second.title, first.title);
    const r2 = await h.stream(second.stream_id);
    ok(!r2.events.some((e) => e.event === "title"));
  } finally {
    await h.close();
  }
});

Deno.test("an idle stream sends heartbeats", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ heartbeatMs: 20 });
    h.fake.enqueue({ text: ["slow", " answer"], delayMs: 150 });
    const res = await h.stream((await h.start("hi")).stream_id);
    ok(res.heartbeats >= 2, `heartbeats: ${res.heartbeats}`);
    strictEqual(tokenText(res.events), "slow answer");
  } finally {
    await h.close();
  }
});

Deno.test("session/retry {run: true} drops the last answer and runs the last user message again", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: "first answer", toolCalls: [{ name: "list_directory", args: {} }] }, {
      text: " done",
    }, {
      text: "second answer",
    });
    await h.stream((await h.start("question")).stream_id);
    const retry = await h.call("POST", "/api/session/retry", {
      session_id: h.sessionId,
      run: true,
    });
    strictEqual(retry.status, 200);
    match(retry.body.stream_id, /^[0-9a-f]{32}$/);
    strictEqual(retry.body.session_id, h.sessionId);
    const res = await h.stream(retry.body.stream_id);
    strictEqual(tokenText(res.events), "second answer");
    const session = res.events.at(-2)!.data.session;
    deepStrictEqual(
      session.messages.map((m: { role: string; content: string }) => [m.role, m.content]),
      [
        ["user", "question"],
        ["assistant", "second answer"],
      ],
    );
    strictEqual(session.tool_calls.length, 0);
    const sent = h.fake.chatRequests.at(-1)!.body.messages as Array<{ role: string }>;
    deepStrictEqual(sent.map((m) => m.role), ["system", "user"]);
    const empty = await h.newSession();
    strictEqual(
      (await h.call("POST", "/api/session/retry", { session_id: empty, run: true })).status,
      400,
    );
    strictEqual(
      (await h.call("POST", "/api/session/retry", { session_id: "0123456789ab", run: true }))
        .status,
      404,
    );
  } finally {
    await h.close();
  }
});

Deno.test("chat/start with model and provider updates the session and uses them", async () => {
  const h = await startHarness({
    yaml:
      "custom_providers:\n  - name: second\n    base_url: {BASE_URL}\n    api_key: k2\n    models: [other-model]\n",
    configYaml: undefined,
  });
  try {
    h.fake.enqueue({ text: "ok" });
    const started = await h.start("hi", { model: "other-model", model_provider: "custom:second" });
    await h.stream(started.stream_id);
    strictEqual(h.fake.chatRequests[0].body.model, "other-model");
    strictEqual(h.fake.chatRequests[0].headers.authorization, "Bearer k2");
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.model, "other-model");
    strictEqual(session.model_provider, "custom:second");
  } finally {
    await h.close();
  }
});

Deno.test("attachments: uploaded text is inlined, images are sent as images, other paths are refused", async () => {
  const h = await startHarness();
  try {
    const upload = async (name: string, bytes: Uint8Array<ArrayBuffer> | string) => {
      const form = new FormData();
      form.set("session_id", h.sessionId);
      form.set("file", new File([bytes], name));
      const res = await fetch(`${h.url}/api/upload`, {
        method: "POST",
        body: form,
        headers: { "x-hermes-csrf-token": await consoleToken(h.app.ctx.security) },
      });
      strictEqual(res.status, 200);
      return await res.json() as { path: string; filename: string };
    };
    const notes = await upload("notes.txt", "line one\nline two");
    // A 1×1 PNG.
    const png = Uint8Array.from(
      atob(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      ),
      (c) => c.charCodeAt(0),
    );
    const pic = await upload("pic.png", png);
    const refused = await h.call("POST", "/api/chat/start", {
      session_id: h.sessionId,
      message: "read this",
      attachments: ["/etc/passwd"],
    });
    strictEqual(refused.status, 404);
    h.fake.enqueue({ text: "seen" });
    const started = await h.start("look at these", { attachments: [notes.path, pic.filename] });
    await h.stream(started.stream_id);
    const user = (h.fake.chatRequests[0].body.messages as Array<{ role: string; content: unknown }>)
      .findLast((m) => m.role === "user")!;
    const parts = user.content as Array<Record<string, unknown>>;
    ok(Array.isArray(parts), JSON.stringify(user));
    ok(parts.some((p) => p.type === "image_url"), "the image goes as an image part");
    ok(JSON.stringify(parts).includes("line one\\nline two"), "the text file is inlined");
    const stored =
      (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session.messages[0];
    deepStrictEqual(
      stored.attachments.map((
        a: { filename: string; is_image: boolean },
      ) => [a.filename, a.is_image]),
      [
        ["notes.txt", false],
        ["pic.png", true],
      ],
    );
  } finally {
    await h.close();
  }
});
