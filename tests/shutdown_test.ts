// Issue 29, "prompt shutdown": main.ts as `deno task start` runs it, with a run waiting for an
// approval, a raw SSE reader following it and the page's other long-lived responses open (the
// sessions feed, the approval stream, background events, the legacy synchronous chat). SIGTERM
// must end every one of them with a last "going away" frame, the process must be gone within
// 5 s, and the run must read as interrupted once the server is started again on its state dir.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, startFakeProvider } from "./fixtures/fake_provider.ts";
import type { ScriptedResponse } from "./fixtures/fake_provider.ts";
import { type StartedServer, startServer } from "./fixtures/start_server.ts";
import { readSse, type SseEvent } from "./fixtures/sse_client.ts";
import { within } from "./fixtures/within.ts";
import { GOING_AWAY_EVENT } from "../lib/shared/chat_events.ts";
import { GOING_AWAY_FRAME, LiveResponses } from "../lib/server/live_responses.ts";
import { sandboxStatus } from "../lib/sandbox/bwrap_sandbox.ts";
import { consoleToken } from "../lib/security/request_proof.ts";
import { createTestApp, serveTestApp } from "./helpers.ts";
import { needs } from "./fixtures/skip.ts";

/** The bound the issue states: SIGTERM to a process gone. */
const EXIT_BOUND_MS = 5_000;

function respond(req: RecordedRequest): ScriptedResponse {
  const messages = req.body?.messages ?? [];
  const toolDone = messages.some((m: { role: string }) => m.role === "tool");
  if (!toolDone) {
    return { toolCalls: [{ id: "call_rm", name: "terminal", args: { command: "rm -rf build" } }] };
  }
  return { text: "Removed it." };
}

async function api<T = Record<string, unknown>>(
  server: StartedServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      "x-hermes-csrf-token": server.token,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status !== 200) {
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  }
  return answer as T;
}

/**
 * Read a long-lived response to its end: its whole text once the server closes it (a connection
 * cut instead says so in the text). `opened` resolves once the first bytes arrived.
 */
function readWhole(url: string) {
  let markOpen!: () => void;
  const opened = new Promise<void>((r) => (markOpen = r));
  let all = "";
  const text = (async () => {
    const res = await fetch(url);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return all;
      all += value;
      markOpen();
    }
  })().catch((err) => `${all}\n[cut: ${err}]`);
  return { opened, text };
}

/** Wait for the process to exit, at most `ms`; its exit time after `from`, or null if it did not. */
async function exitWithin(child: Deno.ChildProcess, from: number, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)));
  const exited = child.status.then((status) => ({ status, after: performance.now() - from }));
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: "SIGTERM ends every open stream with a going-away frame and exits within 5 s",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const fake = startFakeProvider({ respond });
    const root = await Deno.makeTempDir({ prefix: "hermes-shutdown-" });
    await Deno.mkdir(join(root, "workspace", "build"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
    );
    const servers: StartedServer[] = [];
    try {
      const first = await startServer(root);
      servers.push(first);
      const { session } = await api<{ session: { session_id: string } }>(
        first,
        "POST",
        "/api/session/new",
        {},
      );
      const sid = session.session_id;
      const { stream_id: stream } = await api<{ stream_id: string }>(
        first,
        "POST",
        "/api/chat/start",
        { session_id: sid, message: "Clean the build folder" },
      );

      // The run's stream, followed until the server ends it.
      let asked!: () => void;
      const approvalAsked = new Promise<void>((r) => (asked = r));
      const reading = readSse(first.base, stream, {
        onEvent: (e) => e.event === "approval" && asked(),
      }).catch((err: Error) => err);
      await within(approvalAsked, "the approval being asked");

      // The page's other long-lived responses.
      const q = `session_id=${encodeURIComponent(sid)}`;
      const feed = readWhole(`${first.base}/api/sessions/events`);
      const approvals = readWhole(`${first.base}/api/approval/stream?${q}`);
      const background = readWhole(`${first.base}/api/background/events?${q}`);
      await within(Promise.all([feed.opened, approvals.opened, background.opened]), "the feeds");
      // The legacy synchronous chat: a long poll held while its run waits for an approval.
      const legacy = fetch(`${first.base}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hermes-csrf-token": first.token },
        body: JSON.stringify({ message: "Clean the build folder again" }),
      }).then(
        async (res) => ({ status: res.status, body: await res.text() }),
        (err) => ({ status: 0, body: String(err) }),
      );
      await within(
        (async () => {
          while (fake.requests.length < 2) await new Promise((r) => setTimeout(r, 20));
        })(),
        "the legacy chat's run reaching the model",
      );

      const sent = performance.now();
      first.child.kill("SIGTERM");
      const exit = await exitWithin(first.child, sent, EXIT_BOUND_MS);

      // Today's failure mode must not leak into the restart below: a hung process is killed.
      if (!exit) await first.stop("SIGKILL");

      await t.step("the process exits within 5 s of SIGTERM", () => {
        ok(exit, `still running ${EXIT_BOUND_MS} ms after SIGTERM:\n${first.log().slice(-3000)}`);
        // It handled the signal (a clean exit or its own watchdog's), it was not killed by it.
        strictEqual(exit.status.signal, null, `exit status ${JSON.stringify(exit.status)}`);
      });

      await t.step(
        "the run's reader gets a last going-away frame, then the stream closes",
        async () => {
          const read = await within(reading, "the run's stream to close", 10);
          if (read instanceof Error) throw read;
          ok(read.closedByServer, "the server closed the stream");
          const last = read.events.at(-1) as SseEvent;
          strictEqual(last.event, GOING_AWAY_EVENT);
          deepStrictEqual(last.data, { reason: "shutdown" });
          const run = read.events.filter((e) => e.event !== GOING_AWAY_EVENT).map((e) => e.event);
          ok(run.includes("approval"), `the run's events: ${run.join(", ")}`);
          ok(!run.includes("stream_end"), "going away is not the end of the run");
        },
      );

      await t.step("the feeds and the long poll end too, with the same last frame", async () => {
        for (const [name, { text }] of Object.entries({ feed, approvals, background })) {
          const body = await within(text, `${name} to close`, 10);
          ok(
            body.trimEnd().endsWith(`event: ${GOING_AWAY_EVENT}\ndata: {"reason":"shutdown"}`),
            `${name}: ${body.slice(-200)}`,
          );
        }
        const answer = await within(legacy, "the legacy chat to answer", 10);
        strictEqual(answer.status, 503, answer.body);
      });

      await t.step(
        "after a restart on the same state dir the run reads as interrupted",
        async () => {
          const again = await startServer(root);
          servers.push(again);
          const status = await api<{ active: boolean; status: string }>(
            again,
            "GET",
            `/api/chat/stream/status?stream_id=${stream}`,
          );
          strictEqual(status.active, false);
          strictEqual(status.status, "interrupted");
          const replay = await within(readSse(again.base, stream), "the journal's replay");
          // apperror is terminal: the stream closes after it (stream_end follows in the journal).
          const last = replay.events.at(-1)!;
          strictEqual(last.event, "apperror");
          strictEqual(last.data.type, "interrupted");
          const pending = await api<{ pending: unknown; pending_count: number }>(
            again,
            "GET",
            `/api/approval/pending?${q}`,
          );
          strictEqual(pending.pending, null, "no approval is left waiting");
          strictEqual(pending.pending_count, 0);
          const s = await api<{
            session: {
              active_stream_id: string | null;
              tool_calls: Array<{ tool_call_id: string; status: string; result?: string }>;
            };
          }>(again, "GET", `/api/session?${q}`);
          strictEqual(s.session.active_stream_id, null, "the session is free for a new message");
          const call = s.session.tool_calls.find((c) => c.tool_call_id === "call_rm");
          strictEqual(call?.status, "error", "the call that waited is not left waiting");
          strictEqual(call?.result, "Interrupted by a server restart");
          const exists = await Deno.stat(join(root, "workspace", "build")).then(
            () => true,
            () => false,
          );
          ok(exists, "the command that waited for an approval never ran");
        },
      );
    } finally {
      for (const s of servers) await s.stop("SIGKILL").catch(() => {});
      await fake.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});

/** An event-stream Response whose source records its cancel; `push` sends a chunk. */
function eventStream() {
  const enc = new TextEncoder();
  let push!: (text: string) => void;
  const cancelled = { value: false };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      push = (text) => c.enqueue(enc.encode(text));
    },
    cancel() {
      cancelled.value = true;
    },
  });
  const res = new Response(body, { headers: { "content-type": "text/event-stream" } });
  return { res, push: (t: string) => push(t), cancelled };
}

Deno.test("LiveResponses.track() relays an event stream and ends it with the going-away frame", async (t) => {
  await t.step(
    "chunks pass through; goingAway() appends the frame, closes, cancels the source",
    async () => {
      const live = new LiveResponses();
      const src = eventStream();
      const res = live.track(src.res);
      strictEqual(res.headers.get("content-type"), "text/event-stream");
      strictEqual(live.open, 1);
      src.push("id: s:1\nevent: token\ndata: {}\n\n");
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      strictEqual((await reader.read()).value, "id: s:1\nevent: token\ndata: {}\n\n");
      live.goingAway();
      strictEqual(live.signal.aborted, true);
      strictEqual((await reader.read()).value, GOING_AWAY_FRAME);
      strictEqual((await reader.read()).done, true);
      strictEqual(src.cancelled.value, true, "the route's cleanup ran");
      strictEqual(live.open, 0);
    },
  );
  await t.step("a client leaving cancels the route's stream and is forgotten", async () => {
    const live = new LiveResponses();
    const src = eventStream();
    const res = live.track(src.res);
    await res.body!.cancel();
    strictEqual(src.cancelled.value, true);
    strictEqual(live.open, 0);
  });
  await t.step("a stream opened after goingAway() gets the frame at once", async () => {
    const live = new LiveResponses();
    live.goingAway();
    strictEqual(await live.track(eventStream().res).text(), GOING_AWAY_FRAME);
  });
  await t.step("any other answer is left as it is", () => {
    const live = new LiveResponses();
    const json = new Response("{}", { headers: { "content-type": "application/json" } });
    strictEqual(live.track(json), json);
    strictEqual(live.open, 0);
  });
});

const sandbox = await sandboxStatus();

Deno.test(needs(sandbox.bubblewrap ? null : `no bubblewrap sandbox: ${sandbox.message}`, {
  name: "a shutdown closes a terminal's WebSocket with 1001 (going away) before the shell dies",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const app = await createTestApp();
    const server = serveTestApp(app);
    try {
      const { body } = await app.call<{ session: { session_id: string } }>(
        "POST",
        "/api/session/new",
        {},
      );
      const sid = body.session.session_id;
      const started = await app.call<{ terminal: { terminal_id: string } }>(
        "POST",
        "/api/terminal/start",
        { session_id: sid, rows: 24, cols: 80 },
      );
      strictEqual(started.status, 200, JSON.stringify(started.body));
      const tid = started.body.terminal.terminal_id;
      const token = await consoleToken(app.ctx.security);
      const ws = new WebSocket(
        `${server.url.replace("http", "ws")}/api/terminal/ws?session_id=${sid}&terminal_id=${tid}` +
          `&token=${token}`,
      );
      const closed = new Promise<CloseEvent>((r) => ws.addEventListener("close", r));
      await within(
        new Promise<void>((r) =>
          ws.addEventListener("message", (e) => {
            if (typeof e.data === "string" && JSON.parse(e.data).type === "attached") r();
          })
        ),
        "the terminal to attach",
      );
      app.ctx.live.goingAway();
      const e = await within(closed, "the socket to close");
      strictEqual(e.code, 1001);
      strictEqual(e.reason, "server going away");
    } finally {
      await app.close();
      await server.shutdown();
    }
  },
}));
