// The browser's SSE consumer: frame parsing, following a real run end to end, resuming after a
// dropped connection without doubling an event, and the probe schedule that decides between
// resuming, reloading the settled session ("gone") and giving up ("lost").
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  createSseParser,
  type FollowOutcome,
  followStream,
  PROBE_SCHEDULE_MS,
  seqOfId,
} from "../lib/browser/stream_client.ts";
import { GOING_AWAY_EVENT, type SequencedEvent } from "../lib/shared/chat_events.ts";
import type { ServerTrouble } from "../lib/browser/connection_status.ts";
import { startHarness } from "./fixtures/engine_harness.ts";

Deno.test("createSseParser() reassembles frames split anywhere and drops comments", () => {
  const text = ': heartbeat\n\nid: s:1\nevent: token\ndata: {"text":"a"}\n\n' +
    'id: s:2\r\nevent: token\r\ndata: {"text":"b\\n"}\r\n\r\nid: s:3\nevent: done\ndata: 1\ndata: 2\n\n';
  for (const size of [1, 2, 3, 7, text.length]) {
    const parse = createSseParser();
    const frames = [];
    for (let i = 0; i < text.length; i += size) frames.push(...parse(text.slice(i, i + size)));
    deepStrictEqual(frames, [
      { id: "s:1", event: "token", data: '{"text":"a"}' },
      { id: "s:2", event: "token", data: '{"text":"b\\n"}' },
      { id: "s:3", event: "done", data: "1\n2" },
    ], `split every ${size} characters`);
  }
  strictEqual(seqOfId("abc:12"), 12);
  strictEqual(seqOfId(null), null);
});

const frame = (seq: number, event: string, data: unknown) =>
  `id: s:${seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A Response streaming `chunks`, then closing (or erroring when `fail`). */
function sse(chunks: string[], fail = false): Response {
  const enc = new TextEncoder();
  const queue = [...chunks];
  return new Response(
    new ReadableStream({
      pull(c) {
        const next = queue.shift();
        if (next !== undefined) c.enqueue(enc.encode(next));
        else if (fail) c.error(new Error("connection reset"));
        else c.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A fetch answering from a list of handlers, one per request, recording URLs. */
function scripted(...answers: Array<(url: string) => Response | Promise<Response>>) {
  const urls: string[] = [];
  const f = ((input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    urls.push(url);
    const next = answers.shift();
    if (!next) return Promise.reject(new TypeError("network down"));
    return Promise.resolve(next(url));
  }) as typeof fetch;
  return { fetch: f, urls };
}

function collect(opts: { fetch: typeof fetch; afterSeq?: number }) {
  const events: SequencedEvent[] = [];
  const sleeps: number[] = [];
  const follow = followStream({
    streamId: "s",
    afterSeq: opts.afterSeq,
    fetch: opts.fetch,
    baseUrl: "http://x",
    onEvent: (e) => events.push(e),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  });
  return { follow, events, sleeps };
}

Deno.test("followStream() resumes from its cursor after a reset and skips what it has", async () => {
  const { fetch, urls } = scripted(
    () => sse([frame(1, "token", { text: "a" }), frame(2, "token", { text: "b" })], true),
    () => json({ active: true, stream_id: "s", replay_available: true, last_seq: 3 }),
    // The replay overlaps what was delivered (a server may resend): only seq 3+ are new.
    () =>
      sse([
        frame(2, "token", { text: "b" }),
        frame(3, "token", { text: "c" }),
        frame(4, "stream_end", { session_id: "x" }),
      ]),
  );
  const { follow, events, sleeps } = collect({ fetch });
  const outcome = await follow.done;
  strictEqual(outcome.kind, "ended");
  deepStrictEqual(events.map((e) => [e.seq, e.event]), [[1, "token"], [2, "token"], [3, "token"], [
    4,
    "stream_end",
  ]]);
  deepStrictEqual(urls, [
    "http://x/api/chat/stream?stream_id=s&after_seq=0",
    "http://x/api/chat/stream/status?stream_id=s",
    "http://x/api/chat/stream?stream_id=s&after_seq=2",
  ]);
  deepStrictEqual(sleeps, [1500], "the first probe comes 1.5 s after the failure");
  strictEqual(follow.seq, 4);
});

Deno.test("followStream() probes at 1.5, 3, 5, 8, 12 and 20 s, then reports the stream lost", async () => {
  const { fetch, urls } = scripted(); // every request fails: the server is gone
  const { follow, sleeps } = collect({ fetch, afterSeq: 7 });
  const outcome = await follow.done;
  strictEqual(outcome.kind, "lost");
  // Sleeps are the gaps between probe times counted from the failure.
  let t = 0;
  deepStrictEqual(sleeps.map((d) => (t += d)), [...PROBE_SCHEDULE_MS]);
  strictEqual(urls.filter((u) => u.includes("/status")).length, PROBE_SCHEDULE_MS.length);
});

Deno.test("followStream() reports gone when the run is over with nothing left to replay", async (t) => {
  await t.step("the status says so", async () => {
    const { fetch } = scripted(
      () => sse([frame(5, "token", { text: "x" })]),
      () => json({ active: false, stream_id: "s", replay_available: true, last_seq: 5 }),
    );
    const { follow, events } = collect({ fetch, afterSeq: 4 });
    deepStrictEqual(await follow.done, { kind: "gone" } satisfies FollowOutcome);
    strictEqual(events.length, 1);
  });
  await t.step("the stream answers 404", async () => {
    const { fetch } = scripted(() => json({ error: "stream not found" }, 404));
    const { follow } = collect({ fetch });
    deepStrictEqual(await follow.done, { kind: "gone" });
  });
});

Deno.test("followStream() keeps probing through failed probes and resumes when the server is back", async () => {
  const { fetch } = scripted(
    () => sse([], true),
    () => json({ error: "busy" }, 503),
    () => Promise.reject(new TypeError("network down")),
    () => json({ active: true, stream_id: "s", replay_available: false }),
    () => sse([frame(1, "cancel", { message: "Cancelled by user", type: "cancelled" })]),
  );
  const { follow, sleeps } = collect({ fetch });
  const outcome = await follow.done;
  strictEqual(outcome.kind, "ended");
  deepStrictEqual(sleeps, [1500, 1500, 2000]);
});

Deno.test("followStream() close() ends the follow as closed", async () => {
  let release!: () => void;
  const f = (() =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(frame(1, "token", { text: "a" })));
            release = () => c.close();
          },
        }),
      ),
    )) as typeof fetch;
  const { follow, events } = collect({ fetch: f });
  while (events.length === 0) await new Promise((r) => setTimeout(r, 1));
  follow.close();
  release();
  deepStrictEqual(await follow.done, { kind: "closed" });
});

Deno.test("followStream() follows a real run, and a resumed follow ends with the same events", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({
      text: "One two three four five six seven eight nine ten.",
      chunkSize: 3,
      delayMs: 5,
    });
    const { stream_id } = await h.start("Count to ten");
    const all: SequencedEvent[] = [];
    const first = followStream({
      streamId: stream_id,
      baseUrl: h.url,
      onEvent: (e) => all.push(e),
    });
    const outcome = await first.done;
    strictEqual(outcome.kind, "ended");
    strictEqual(all.at(-1)!.event, "stream_end");
    deepStrictEqual(all.map((e) => e.seq), all.map((_, i) => i + 1), "in order, none missing");
    const text = all.filter((e) => e.event === "token").map((e) =>
      (e.data as { text: string }).text
    ).join("");
    strictEqual(text, "One two three four five six seven eight nine ten.");

    // A page reloaded after seq 3 resumes the finished run's journal from there.
    const rest: SequencedEvent[] = [];
    const resumed = followStream({
      streamId: stream_id,
      afterSeq: 3,
      baseUrl: h.url,
      onEvent: (e) => rest.push(e),
    });
    strictEqual((await resumed.done).kind, "ended");
    deepStrictEqual(rest, all.slice(3));

    // A connection cut mid-stream (a proxy dropping it) is resumed without doubling text.
    h.fake.enqueue({
      text: "alpha beta gamma delta epsilon zeta eta theta",
      chunkSize: 2,
      delayMs: 5,
    });
    const second = await h.start("Greek");
    let cut = false;
    const cutting = ((input: string | URL | Request, init?: RequestInit) => {
      const p = fetch(input, init);
      if (cut || !String(input).includes("/api/chat/stream?")) return p;
      cut = true;
      return p.then((res) => {
        const reader = res.body!.getReader();
        let n = 0;
        return new Response(
          new ReadableStream({
            async pull(c) {
              const { value, done } = await reader.read();
              if (done || ++n > 4) {
                await reader.cancel();
                return c.error(new Error("proxy dropped the connection"));
              }
              c.enqueue(value);
            },
          }),
          { headers: res.headers },
        );
      });
    }) as typeof fetch;
    const got: SequencedEvent[] = [];
    const states: string[] = [];
    const third = followStream({
      streamId: second.stream_id,
      baseUrl: h.url,
      fetch: cutting,
      onEvent: (e) => got.push(e),
      onState: (s) => states.push(s),
      sleep: () => Promise.resolve(),
    });
    strictEqual((await third.done).kind, "ended");
    ok(cut && states.includes("reconnecting"), `the connection was cut and resumed: ${states}`);
    deepStrictEqual(got.map((e) => e.seq), got.map((_, i) => i + 1));
    const greek = got.filter((e) => e.event === "token").map((e) =>
      (e.data as { text: string }).text
    ).join("");
    strictEqual(greek, "alpha beta gamma delta epsilon zeta eta theta");
  } finally {
    await h.close();
  }
});

const goingAway = `event: ${GOING_AWAY_EVENT}\ndata: {"reason":"shutdown"}\n\n`;

Deno.test("followStream() takes a going-away frame for a restart, not the end of the run", async (t) => {
  await t.step("it waits for the server, then resumes from its cursor at once", async () => {
    const { fetch, urls } = scripted(
      () => sse([frame(1, "token", { text: "a" }), goingAway]),
      () => sse([frame(2, "apperror", { message: "restarted", type: "interrupted" })]),
    );
    const told: ServerTrouble[] = [];
    const events: SequencedEvent[] = [];
    const sleeps: number[] = [];
    const follow = followStream({
      streamId: "s",
      fetch,
      baseUrl: "http://x",
      onEvent: (e) => events.push(e),
      sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
      serverTrouble: (what) => (told.push(what), Promise.resolve(true)),
    });
    strictEqual((await follow.done).kind, "ended");
    deepStrictEqual(events.map((e) => [e.seq, e.event]), [[1, "token"], [2, "apperror"]]);
    deepStrictEqual(told, ["away"]);
    deepStrictEqual(sleeps, [], "no probe schedule: the connection said when");
    deepStrictEqual(urls, [
      "http://x/api/chat/stream?stream_id=s&after_seq=0",
      "http://x/api/chat/stream?stream_id=s&after_seq=1",
    ]);
  });

  await t.step("without a connection it keeps to the probe schedule", async () => {
    const { fetch } = scripted(
      () => sse([frame(1, "token", { text: "a" }), goingAway]),
      () => json({ active: true, stream_id: "s", replay_available: true, last_seq: 1 }),
      () => sse([frame(2, "stream_end", { session_id: "x" })]),
    );
    const { follow, events, sleeps } = collect({ fetch });
    strictEqual((await follow.done).kind, "ended");
    deepStrictEqual(events.map((e) => e.seq), [1, 2]);
    deepStrictEqual(sleeps, [1500]);
  });

  await t.step(
    "a follow whose probes all failed waits while the page knows the server away",
    async () => {
      const answers: Array<(url: string) => Response> = PROBE_SCHEDULE_MS.map(() => () =>
        json({ error: "bad gateway" }, 502)
      );
      const { fetch } = scripted(
        () => sse([], true),
        ...answers,
        () => sse([frame(1, "stream_end", { session_id: "x" })]),
      );
      const told: ServerTrouble[] = [];
      const follow = followStream({
        streamId: "s",
        fetch,
        baseUrl: "http://x",
        onEvent: () => {},
        sleep: () => Promise.resolve(),
        serverTrouble: (what) => (told.push(what), Promise.resolve(what === "lost")),
      });
      strictEqual((await follow.done).kind, "ended", "resumed instead of lost");
      deepStrictEqual(told, ["broken", "lost"]);
    },
  );
});
