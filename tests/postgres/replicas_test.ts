// Replicas for real: two (then three) console processes started as `deno task start` runs them,
// sharing one PostgreSQL database (the server tools/ensure_postgres.sh makes answer; no server
// fails this test, it never skips) and one state dir, with the fake provider. A run started on
// one is streamed, resumed, refused, cancelled, approved and recovered through another.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import type { RecordedRequest, ScriptedResponse } from "../fixtures/fake_provider.ts";
import {
  leaseEnv,
  type StartedServer,
  startFlags,
  startServer,
  TEST_LEASES,
} from "../fixtures/start_server.ts";
import { readSse, type SseEvent, tokenText } from "../fixtures/sse_client.ts";
import { within } from "../fixtures/within.ts";

const DATABASE_URL = Deno.env.get("HERMES_TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/hermes_test";

async function api<T = Record<string, unknown>>(
  server: StartedServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      "x-hermes-csrf-token": server.token,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as T };
}

async function ok200<T = Record<string, unknown>>(
  server: StartedServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await api<T>(server, method, path, body);
  if (res.status !== 200) {
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

async function newSession(server: StartedServer): Promise<string> {
  const res = await ok200<{ session: { session_id: string } }>(
    server,
    "POST",
    "/api/session/new",
    {},
  );
  return res.session.session_id;
}

async function start(server: StartedServer, sessionId: string, message: string): Promise<string> {
  const res = await ok200<{ stream_id: string }>(server, "POST", "/api/chat/start", {
    session_id: sessionId,
    message,
  });
  return res.stream_id;
}

/** The seqs of a stream's events are 1…n with no gap and no repeat. */
function assertContiguous(events: SseEvent[], from = 1): void {
  deepStrictEqual(events.map((e) => e.seq), events.map((_, i) => from + i));
}

/** Read `stream` through `server` until its approval is asked; returns that event. */
async function approvalAsked(server: StartedServer, stream: string): Promise<SseEvent> {
  const read = await within(
    readSse(server.base, stream, { stopWhen: (e) => e.event === "approval" }),
    "reading a stream",
  );
  const asked = read.events.at(-1)!;
  strictEqual(asked.event, "approval");
  return asked;
}

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i} `);

/** What the fake model answers, keyed by a word in the last user message. */
function respond(req: RecordedRequest): ScriptedResponse {
  const messages = req.body?.messages ?? [];
  const last = messages.findLast((m: { role: string }) => m.role === "user");
  const text = typeof last?.content === "string"
    ? last.content
    : JSON.stringify(last?.content ?? "");
  const toolDone = messages.some((m: { role: string }) => m.role === "tool");
  if (text.includes("slow")) return { text: words(80, "s"), delayMs: 40 };
  if (text.includes("danger") && !toolDone) {
    return {
      toolCalls: [{ id: "call_rm", name: "terminal", args: { command: "rm -rf build" } }],
    };
  }
  if (text.includes("delegate") && !toolDone) {
    return {
      toolCalls: [{
        id: "call_del",
        name: "delegate",
        args: { task: "danger: clean the build directory", tools: ["terminal"] },
      }],
    };
  }
  const tag = /tag(\d+)/.exec(text)?.[1];
  if (tag) return { text: words(30, `t${tag}-`), delayMs: 2 };
  return { text: words(40, "w"), delayMs: 10 };
}

Deno.test({
  name:
    "replicas on PostgreSQL: stream, resume, 409, cancel, approvals and recovery across processes",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const fake = startFakeProvider({ respond });
    const root = await Deno.makeTempDir({ prefix: "hermes-replicas-" });
    await Deno.mkdir(join(root, "workspace"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
    );
    const flags = await startFlags();
    const env = {
      HERMES_DATABASE_URL: DATABASE_URL,
      HERMES_DATABASE_ISOLATE: "1",
      // Short leases: a killed replica's run is recovered, and a long wait outlives a lease,
      // in a few seconds instead of the production 10 s + 3 s.
      ...leaseEnv(),
    };
    const replicas: StartedServer[] = [];
    const startReplica = async () => {
      const r = await startServer(root, { flags, env });
      replicas.push(r);
      return r;
    };
    try {
      const a = await startReplica();
      const b = await startReplica();

      await t.step("a run started on A streams completely from B", async () => {
        const sid = await newSession(a);
        const stream = await start(a, sid, "hello");
        const fromB = await within(readSse(b.base, stream), "reading a stream");
        strictEqual(fromB.status, 200);
        ok(fromB.closedByServer);
        strictEqual(tokenText(fromB.events), words(40, "w").join(""));
        assertContiguous(fromB.events);
        const fromA = await within(readSse(a.base, stream), "reading a stream");
        deepStrictEqual(fromA.events.map((e) => e.id), fromB.events.map((e) => e.id));
      });

      await t.step("the sessions feed on B hears a session created and renamed on A", async () => {
        const ac = new AbortController();
        const res = await fetch(`${b.base}/api/sessions/events`, { signal: ac.signal });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        // The feed is listening once its first comment arrives.
        while (!text.includes(": connected")) text += (await reader.read()).value ?? "";
        const sid = await newSession(a);
        await ok200(a, "POST", "/api/session/rename", { session_id: sid, title: "Renamed on A" });
        const heard = async () => {
          while (!(text.includes(`"reason":"rename","session_id":"${sid}"`))) {
            const { value, done } = await reader.read();
            if (done) throw new Error("the feed ended");
            text += value;
          }
        };
        await within(heard(), "B's sessions feed");
        ac.abort();
        await reader.cancel().catch(() => {});
        const list = await ok200<{ sessions: Array<{ session_id: string; title: string }> }>(
          b,
          "GET",
          "/api/sessions",
        );
        strictEqual(list.sessions.find((s) => s.session_id === sid)?.title, "Renamed on A");
      });

      await t.step(
        "a provider saved on A is in B's config and catalog without a restart",
        async () => {
          const hasKey = async (server: StartedServer) =>
            (await ok200<{ providers: Array<{ id: string; has_key: boolean }> }>(
              server,
              "GET",
              "/api/providers",
            )).providers.find((p) => p.id === "openai")?.has_key;
          strictEqual(await hasKey(b), false);
          const saved = await api(a, "POST", "/api/providers", {
            provider: "openai",
            api_key: "sk-replica-test-1234567890",
          });
          strictEqual(saved.status, 201);
          const seen = async () => {
            while (!(await hasKey(b))) await new Promise((r) => setTimeout(r, 50));
          };
          await within(seen(), "B re-reading the provider change");
        },
      );

      await t.step("a client resumes on B with Last-Event-ID after reading half on A", async () => {
        const sid = await newSession(a);
        const stream = await start(a, sid, "slow");
        const first = await within(
          readSse(a.base, stream, {
            stopWhen: (_e, all) => all.filter((x) => x.event === "token").length >= 5,
          }),
          "reading a stream",
        );
        ok(!first.closedByServer);
        const last = first.events.at(-1)!;
        const rest = await within(
          readSse(b.base, stream, { lastEventId: last.id }),
          "reading a stream",
        );
        ok(rest.closedByServer);
        const all = [...first.events, ...rest.events];
        assertContiguous(all);
        strictEqual(tokenText(all), words(80, "s").join(""));
      });

      await t.step("a start on B while A runs the session is a 409", async () => {
        const sid = await newSession(a);
        const stream = await start(a, sid, "slow");
        const second = await api(b, "POST", "/api/chat/start", {
          session_id: sid,
          message: "again",
        });
        strictEqual(second.status, 409);
        strictEqual((second.body as { active_stream_id?: string }).active_stream_id, stream);
        await ok200(b, "GET", `/api/chat/cancel?stream_id=${stream}`);
        await within(readSse(a.base, stream), "reading a stream");
      });

      await t.step("cancel sent to B stops the run on A", async () => {
        const sid = await newSession(a);
        const stream = await start(a, sid, "slow");
        const seen = within(readSse(b.base, stream), "B's reader");
        await within(
          readSse(a.base, stream, { stopWhen: (e) => e.event === "token" }),
          "reading a stream",
        );
        const res = await ok200<{ cancelled: boolean }>(
          b,
          "GET",
          `/api/chat/cancel?stream_id=${stream}`,
        );
        strictEqual(res.cancelled, true);
        const events = (await seen).events;
        ok(events.some((e) => e.event === "cancel"), "the cancel event reached B's reader");
        ok(tokenText(events).length < words(80, "s").join("").length, "the answer was cut short");
        const status = await ok200<{ active: boolean; status: string }>(
          b,
          "GET",
          `/api/chat/stream/status?stream_id=${stream}`,
        );
        strictEqual(status.status, "cancelled");
        // The session is free again, on either replica.
        const next = await start(b, sid, "hello");
        ok((await within(readSse(b.base, next), "reading a stream")).closedByServer);
      });

      await t.step("an approval asked on A is answered through B", async () => {
        const sid = await newSession(a);
        const stream = await start(a, sid, "danger");
        const asked = await approvalAsked(b, stream);
        const answer = await ok200<{ resolved: boolean }>(b, "POST", "/api/approval/respond", {
          session_id: sid,
          approval_id: asked.data.approval_id,
          choice: "once",
        });
        strictEqual(answer.resolved, true);
        const rest = await within(
          readSse(b.base, stream, { lastEventId: asked.id }),
          "reading a stream",
        );
        ok(rest.closedByServer);
        ok(
          rest.events.some((e) => e.event === "approval_resolved"),
          "A's run heard the answer given on B",
        );
        const tool = rest.events.find((e) => e.event === "tool_complete" || e.event === "tool");
        ok(tool, `the approved command ran: ${rest.events.map((e) => e.event).join(",")}`);
        ok(!rest.events.some((e) => e.event === "error"));
      });

      await t.step(
        "a delegated sub-task waiting on an approval outlives a lease: B's sweeps leave it alone",
        async () => {
          const sid = await newSession(a);
          const stream = await start(a, sid, "please delegate the cleanup");
          const asked = await approvalAsked(b, stream);
          // The person takes longer than a lease to answer: B sweeps several times meanwhile.
          await new Promise((r) =>
            setTimeout(r, (TEST_LEASES.leaseSeconds * 1000 + TEST_LEASES.sweepMs) * 1.4)
          );
          const answer = await ok200<{ resolved: boolean }>(b, "POST", "/api/approval/respond", {
            session_id: sid,
            approval_id: asked.data.approval_id,
            choice: "deny",
          });
          strictEqual(answer.resolved, true, "the child's approval was still waiting");
          const rest = await within(
            readSse(b.base, stream, { lastEventId: asked.id }),
            "reading a stream",
          );
          const delegated = rest.events.find((e) =>
            e.event === "tool_complete" && e.data.name === "delegate"
          );
          ok(delegated, rest.events.map((e) => e.event).join(","));
          ok(
            !String(delegated.data.result_preview).includes("stopped unexpectedly"),
            String(delegated.data.result_preview),
          );
          ok(!rest.events.some((e) => e.event === "apperror" || e.event === "error"));
        },
      );

      await t.step(
        "kill -9 A mid-run: B marks it interrupted, keeps the partial text, the session goes on",
        async () => {
          const sid = await newSession(a);
          const stream = await start(a, sid, "slow");
          const partial = await within(
            readSse(b.base, stream, {
              stopWhen: (_e, all) => all.filter((x) => x.event === "token").length >= 5,
            }),
            "reading a stream",
          );
          const follower = within(
            readSse(b.base, stream, { lastEventId: partial.events.at(-1)!.id }),
            "B following A's run after the kill",
          );
          await a.stop("SIGKILL");
          replicas.splice(replicas.indexOf(a), 1);
          const killedAt = performance.now();
          const rest = await follower;
          const waited = (performance.now() - killedAt) / 1000;
          console.log(`B closed A's run ${waited.toFixed(1)} s after the kill`);
          ok(rest.closedByServer, "B's reader was told the run ended");
          const apperror = rest.events.find((e) => e.event === "apperror");
          strictEqual(apperror?.data.type, "interrupted");
          const streamed = tokenText([...partial.events, ...rest.events]);
          ok(streamed.length > 0);
          const session = await ok200<
            { session: { messages: Array<{ role: string; content: string }> } }
          >(
            b,
            "GET",
            `/api/session?session_id=${sid}`,
          );
          const answer = session.session.messages.findLast((m) => m.role === "assistant");
          ok(
            answer && streamed.startsWith(answer.content.trim().slice(0, 10)),
            "the partial answer is kept",
          );
          ok(
            answer!.content.length >= tokenText(partial.events).trim().length,
            "nothing streamed was lost",
          );
          const next = await start(b, sid, "hello");
          const done = await within(readSse(b.base, next), "reading a stream");
          strictEqual(tokenText(done.events), words(40, "w").join(""));
        },
      );

      await t.step(
        "20 concurrent sessions spread over three replicas all complete exactly",
        async () => {
          const c = await startReplica();
          const servers = [b, c, await startReplica()];
          void c;
          const runs = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
            const owner = servers[i % servers.length];
            const reader = servers[(i + 1) % servers.length];
            const sid = await newSession(owner);
            const stream = await start(owner, sid, `tag${i}`);
            return { i, result: await within(readSse(reader.base, stream), `session ${i}`) };
          }));
          try {
            for (const { i, result } of runs) {
              ok(
                result.closedByServer,
                `session ${i}: the reader answered ${result.status} ` +
                  `${JSON.stringify(result.body)} after ${result.events.length} events`,
              );
              assertContiguous(result.events);
              strictEqual(tokenText(result.events), words(30, `t${i}-`).join(""), `session ${i}`);
            }
          } catch (err) {
            // What the replicas logged says why (a refused write, a lock wait, a lost signal).
            servers.forEach((s, n) =>
              console.error(
                `replica ${n} warnings and errors:\n` +
                  s.log().split("\n").filter((l) => /warn|error/i.test(l)).slice(-40).join("\n"),
              )
            );
            throw err;
          }
        },
      );
    } finally {
      for (const r of replicas) await r.stop();
      await fake.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  // A pair of its own: the chat-start rate limit (30 a minute per client, counted across
  // replicas) is spent by the test above.
  name: "replicas on PostgreSQL: A and B starting a run in one session at once: one 200, one 409",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fake = startFakeProvider({ respond });
    const root = await Deno.makeTempDir({ prefix: "hermes-replicas-race-" });
    await Deno.mkdir(join(root, "workspace"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
    );
    const flags = await startFlags();
    const env = { HERMES_DATABASE_URL: DATABASE_URL, HERMES_DATABASE_ISOLATE: "1", ...leaseEnv() };
    const replicas: StartedServer[] = [];
    try {
      replicas.push(await startServer(root, { flags, env }));
      replicas.push(await startServer(root, { flags, env }));
      const [a, b] = replicas;
      const logsBefore = [a.log(), b.log()];
      const sid = await newSession(a);
      for (let round = 1; round <= 3; round++) {
        const [fromA, fromB] = await Promise.all(
          [a, b].map((server) =>
            api<{ stream_id?: string; active_stream_id?: string; error?: string }>(
              server,
              "POST",
              "/api/chat/start",
              { session_id: sid, message: `hello, round ${round}` },
            )
          ),
        );
        const outcome = `round ${round}: A ${fromA.status} ${JSON.stringify(fromA.body)}, ` +
          `B ${fromB.status} ${JSON.stringify(fromB.body)}`;
        deepStrictEqual([fromA.status, fromB.status].sort(), [200, 409], outcome);
        const [won, lost] = fromA.status === 200 ? [fromA, fromB] : [fromB, fromA];
        const owner = fromA.status === 200 ? a : b;
        strictEqual(lost.body.error, "session already has an active stream", outcome);
        strictEqual(lost.body.active_stream_id, won.body.stream_id, outcome);
        const stream = won.body.stream_id!;
        // Round 2 ends its run by a cancel, the others run to their end; either way the
        // session is free for the next round once the run's last event is read.
        if (round === 2) await ok200(owner, "GET", `/api/chat/cancel?stream_id=${stream}`);
        const read = await within(readSse(owner.base, stream), "reading a stream");
        ok(read.closedByServer, outcome);
        assertContiguous(read.events);
        ok(
          !read.events.some((e) => e.event === "apperror" || e.event === "error"),
          `${outcome}: ${read.events.map((e) => e.event).join(",")}`,
        );
      }
      // The loser launched nothing: no journal write for a run that was never recorded.
      for (const [i, server] of [a, b].entries()) {
        const log = server.log();
        const fresh = log.startsWith(logsBefore[i]) ? log.slice(logsBefore[i].length) : log;
        const bad = fresh.split("\n").filter((line) =>
          / ERROR |foreign key|_fkey|duplicate key|unique|violates|failed/i.test(line)
        );
        deepStrictEqual(bad, [], `replica ${"AB"[i]} logged errors during the race`);
      }
    } finally {
      for (const r of replicas) await r.stop();
      await fake.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
