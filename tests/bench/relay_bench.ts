// Benchmark: the streaming relay, fake provider → engine (AI SDK, coalescing, journal) → SSE.
// 1. Throughput: 20,000 token deltas sent as fast as the fake can write them; provider tokens
//    relayed per second to an SSE client (target ≥ 50,000/s), next to reading the same stream
//    directly (raw HTTP) for scale.
// 2. Latency: 2,000 paced deltas; for each, the time from the fake writing it to the SSE client
//    receiving it, minus the same for a client reading the fake directly (target < 2 ms added
//    at p99). Prints figures and ratios to the targets.
import { startHarness } from "../fixtures/engine_harness.ts";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { NO_TOOL_HOOKS } from "../../lib/engine/engine_options.ts";
import { percentile } from "./percentile.ts";

const TOKENS = 20_000;
const PACED = 2_000;
const RUNS = 5;
const TARGET_RATE = 50_000;
const TARGET_ADDED_P99_MS = 2;

/** Fixed-width distinct tokens, so an arrival offset maps back to a token index. */
const WIDTH = 7;
const token = (i: number) => `t${String(i).padStart(5, "0")} `;
const pieces = (n: number) => Array.from({ length: n }, (_, i) => token(i));

/** Read an SSE body, calling onText(text, at) for each OpenAI delta or console `token` event. */
async function consume(res: Response, onText: (text: string, at: number) => void): Promise<number> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let events = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = performance.now();
    buf += value;
    let end: number;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const dataLine = frame.split("\n").find((l) => l.startsWith("data: "));
      if (!dataLine) continue;
      const json = dataLine.slice(6);
      if (json === "[DONE]") continue;
      const isConsole = frame.includes("\nevent: ");
      if (isConsole) {
        if (!frame.includes("\nevent: token\n")) continue;
        events++;
        onText(JSON.parse(json).text, at);
      } else {
        const content = JSON.parse(json).choices?.[0]?.delta?.content;
        if (content) {
          events++;
          onText(content, at);
        }
      }
    }
  }
  return events;
}

/** Arrival time of each token index, from cumulative text length. */
function arrivals(n: number) {
  const at = new Array<number>(n).fill(NaN);
  let length = 0;
  return {
    at,
    onText(text: string, t: number) {
      const before = Math.floor(length / WIDTH);
      length += text.length;
      const after = Math.min(n, Math.floor(length / WIDTH));
      for (let i = before; i < after; i++) at[i] = t;
    },
    get complete() {
      return length === n * WIDTH;
    },
  };
}

async function direct(baseUrl: string, n: number) {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "fake-model",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    }),
  });
  const a = arrivals(n);
  await consume(res, a.onText);
  if (!a.complete) throw new Error("direct read lost tokens");
  return a.at;
}

async function relay(h: Awaited<ReturnType<typeof startHarness>>, n: number) {
  h.sessionId = await h.newSession(); // a fresh transcript each run (no compression)
  const { stream_id } = await h.start("go");
  const res = await fetch(`${h.url}/api/chat/stream?stream_id=${stream_id}`);
  const a = arrivals(n);
  const events = await consume(res, a.onText);
  if (!a.complete) throw new Error("relay lost tokens");
  return { at: a.at, events };
}

const fake = startFakeProvider();
const h = await startHarness({ fake });
h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
try {
  // Warm up JIT, SDK and SQLite.
  fake.enqueue({ text: pieces(2000), noUsage: true });
  await relay(h, 2000);

  // 1. Throughput (5 runs; the median is the figure, the spread says how noisy the machine is).
  const rates: number[] = [];
  let events = 0;
  for (let run = 0; run < RUNS; run++) {
    let firstSent = 0;
    fake.enqueue({ text: pieces(TOKENS), onTextDelta: (i, t) => (i === 0 ? (firstSent = t) : 0) });
    const r = await relay(h, TOKENS);
    rates.push(TOKENS / ((r.at[TOKENS - 1] - firstSent) / 1000));
    events = r.events;
  }
  const directRates: number[] = [];
  for (let run = 0; run < 3; run++) {
    let firstSent = 0;
    fake.enqueue({ text: pieces(TOKENS), onTextDelta: (i, t) => (i === 0 ? (firstSent = t) : 0) });
    const d = await direct(fake.baseUrl, TOKENS);
    directRates.push(TOKENS / ((d[TOKENS - 1] - firstSent) / 1000));
  }
  rates.sort((a, b) => a - b);
  directRates.sort((a, b) => a - b);
  const relayRate = percentile(rates, 50);
  const fmt = (n: number) => Math.round(n).toLocaleString();
  console.log(`throughput over ${TOKENS.toLocaleString()} token deltas (${RUNS} runs)`);
  console.log(
    `  relay  median ${fmt(relayRate)} tokens/s (min ${fmt(rates[0])}, max ${
      fmt(rates.at(-1)!)
    }) ` +
      `to the SSE client, in ~${events} token events (${
        (TOKENS / events).toFixed(0)
      } deltas/event coalesced)`,
  );
  console.log(
    `  direct median ${fmt(percentile(directRates, 50))} tokens/s reading the fake provider raw`,
  );
  console.log(
    `  target ≥ ${TARGET_RATE.toLocaleString()}/s · relay/target ${
      (relayRate / TARGET_RATE).toFixed(2)
    }`,
  );

  // 2. Latency, paced (each delta written 1 ms after the previous one).
  const latency = async (read: () => Promise<number[]>) => {
    const sentAt = new Array<number>(PACED).fill(NaN);
    fake.enqueue({ text: pieces(PACED), delayMs: 1, onTextDelta: (i, t) => (sentAt[i] = t) });
    const got = await read();
    return got.map((t, i) => t - sentAt[i]).sort((a, b) => a - b);
  };
  const viaRelay = await latency(async () => (await relay(h, PACED)).at);
  const viaDirect = await latency(() => direct(fake.baseUrl, PACED));
  const p = (xs: number[], q: number) => percentile(xs, q);
  const added50 = p(viaRelay, 50) - p(viaDirect, 50);
  const added99 = p(viaRelay, 99) - p(viaDirect, 99);
  console.log(
    `latency per token over ${PACED.toLocaleString()} paced deltas (provider write → client read)`,
  );
  console.log(
    `  relay  p50 ${p(viaRelay, 50).toFixed(2)} ms · p99 ${p(viaRelay, 99).toFixed(2)} ms`,
  );
  console.log(
    `  direct p50 ${p(viaDirect, 50).toFixed(2)} ms · p99 ${p(viaDirect, 99).toFixed(2)} ms`,
  );
  console.log(
    `  added  p50 ${added50.toFixed(2)} ms · p99 ${
      added99.toFixed(2)
    } ms · target < ${TARGET_ADDED_P99_MS} ms at p99 · ` +
      `added p99/target ${(added99 / TARGET_ADDED_P99_MS).toFixed(2)}`,
  );
} finally {
  await h.close();
  await fake.close();
}
