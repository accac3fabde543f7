// A real server process killed with SIGKILL mid-answer (while text streams, or while a slow
// tool runs between two steps) and started again on the same state dir keeps at least every
// character the SSE client had already received, in the right messages, and every finished
// tool result. Kill points are random but seeded (HERMES_KILL_SEED=… reproduces a run).
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { leaseEnv, type StartedServer, startFlags, startServer } from "../fixtures/start_server.ts";
import { readSse, type SseEvent } from "../fixtures/sse_client.ts";
import { messagesFromJournal } from "../../lib/engine/journal_recovery.ts";
import type { SequencedEvent } from "../../lib/shared/chat_events.ts";

/** The permission flags of `deno task start` (deno.json is the one source of truth). */
/** mulberry32: a small seeded generator, so a failing kill point can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function api(server: StartedServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      "x-hermes-csrf-token": server.token,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const words = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}${i % 9 === 8 ? "\n" : " "}`);

Deno.test("a server killed with SIGKILL keeps every streamed character after restart", async (t) => {
  const seed = Number(Deno.env.get("HERMES_KILL_SEED") ?? Date.now() % 1_000_000);
  console.log(`kill_recovery seed: ${seed} (HERMES_KILL_SEED=${seed} reproduces it)`);
  const random = seeded(seed);
  const flags = await startFlags();
  // On PostgreSQL a restarted server takes over the killed one's run only once its lease
  // expires (lib/replicas/run_leases.ts): short leases, not the production 10 s + 3 s sweep.
  const env = leaseEnv();
  const fake = startFakeProvider();
  const root = await Deno.makeTempDir({ prefix: "hermes-kill-" });
  await Deno.mkdir(join(root, "workspace"), { recursive: true });
  await Deno.writeTextFile(
    join(root, "config.yaml"),
    `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
  );
  let server = await startServer(root, { flags, env });
  try {
    for (let round = 0; round < 5; round++) {
      const withTool = round % 2 === 1;
      // Text only: kill somewhere in 0.1–1.6 s of a ~2.4 s answer. With a tool: kill in the
      // first step, during the 1.5 s `sleep`, or in the second step's text.
      const killAfterMs = Math.round(100 + random() * (withTool ? 2600 : 1500));
      await t.step(
        `round ${round}: ${withTool ? "text → tool → text" : "text"}, kill after ${killAfterMs} ms`,
        async () => {
          fake.enqueue(
            withTool
              ? {
                reasoning: "thinking it over ",
                text: words(20, "a"),
                delayMs: 25,
                toolCalls: [{
                  id: `call_${round}`,
                  name: "terminal",
                  args: { command: "sleep 1.5" },
                }],
              }
              : { reasoning: "let me see ", text: words(80, "t"), delayMs: 30 },
          );
          if (withTool) fake.enqueue({ text: words(60, "b"), delayMs: 25 });
          const { session } = await api(server, "POST", "/api/session/new", {});
          const sessionId = session.session_id as string;
          const start = await api(server, "POST", "/api/chat/start", {
            session_id: sessionId,
            message: `round ${round}`,
          });
          const seen: SseEvent[] = [];
          const reading = readSse(server.base, start.stream_id, { onEvent: (e) => seen.push(e) })
            .catch(() => null); // the connection dies with the server
          await new Promise((r) => setTimeout(r, killAfterMs));
          strictEqual((await server.stop("SIGKILL")).status.signal, "SIGKILL");
          await reading;
          // Drop a scripted response the killed run never asked for.
          while (fake.pending) await drain(fake);

          server = await startServer(root, { flags, env });
          const replay = await readSse(server.base, start.stream_id);
          const last = replay.events.at(-1)!;
          ok(last.event === "apperror" || last.event === "stream_end", last.event);
          const { session: stored } = await api(
            server,
            "GET",
            `/api/session?session_id=${sessionId}`,
          );
          const messages = stored.messages as Array<
            { role: string; content: string; reasoning?: string; tool_call_id?: string }
          >;
          strictEqual(messages[0].role, "user");
          const streamed = messagesFromJournal(seen as unknown as SequencedEvent[]);
          const streamedTexts = streamed.filter((m) =>
            m.role === "assistant" && (m.content || m.reasoning)
          ) as Array<{ content: string; reasoning: string }>;
          const storedTexts = messages.filter((m) =>
            m.role === "assistant" && (m.content || m.reasoning)
          );
          ok(
            storedTexts.length >= streamedTexts.length,
            `stored ${storedTexts.length} answers, streamed ${streamedTexts.length}`,
          );
          streamedTexts.forEach((s, i) => {
            const kept = storedTexts[i];
            ok(
              kept.content.startsWith(s.content),
              `answer ${i}: stored ${kept.content.length} chars, client saw ${s.content.length}`,
            );
            ok((kept.reasoning ?? "").startsWith(s.reasoning), `reasoning ${i} was cut`);
          });
          for (const e of seen.filter((e) => e.event === "tool_complete")) {
            ok(
              messages.some((m) => m.role === "tool" && m.tool_call_id === e.data.tool_call_id),
              `the finished tool ${e.data.tool_call_id} has its result row`,
            );
          }
          const toolRows = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
          strictEqual(new Set(toolRows).size, toolRows.length, "no tool row is duplicated");
          console.log(
            `  streamed ${streamedTexts.map((s) => s.content.length).join("+") || 0} chars, ` +
              `stored ${storedTexts.map((s) => s.content.length).join("+") || 0}`,
          );
        },
      );
    }
  } finally {
    await server.stop("SIGKILL");
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** Consume one queued response so the next round starts from an empty script. */
async function drain(fake: ReturnType<typeof startFakeProvider>): Promise<void> {
  await fetch(`${fake.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "fake-model", messages: [], stream: true }),
  }).then((r) => r.body?.cancel());
}
