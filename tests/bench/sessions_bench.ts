// Benchmark: GET /api/sessions with 10,000 sessions (a few messages each), through the app's
// fetch handler. Prints median and p95 over 50 calls and their ratio to the 50 ms target.
import { createTestApp } from "../helpers.ts";
import { transaction } from "../../lib/storage/db.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";

const SESSIONS = 10_000;
const CALLS = 50;
const TARGET_MS = 50;

export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

/** Time `path` CALLS times: request in → whole body out (the client's JSON parse is not ours). */
async function bench(path: string, describe: (body: Record<string, unknown>) => string) {
  const call = async () => {
    const t0 = performance.now();
    const res = await app.request("GET", path);
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${text}`);
    return { ms, text };
  };
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  let last = "";
  for (let i = 0; i < CALLS; i++) {
    const r = await call();
    times.push(r.ms);
    last = r.text;
  }
  times.sort((a, b) => a - b);
  const median = percentile(times, 50), p95 = percentile(times, 95);
  console.log(`GET ${path} (${describe(JSON.parse(last))}, ${(last.length / 1e6).toFixed(1)} MB)`);
  console.log(
    `  median ${median.toFixed(1)} ms · p95 ${p95.toFixed(1)} ms · min ${times[0].toFixed(1)} ms` +
      ` · target ${TARGET_MS} ms · median/target ${(median / TARGET_MS).toFixed(2)}` +
      ` · p95/target ${(p95 / TARGET_MS).toFixed(2)}`,
  );
}

let now = 1_700_000_000;
const app = await createTestApp({ clock: () => (now += 0.01) });
try {
  const seedStart = performance.now();
  const { db, clock } = app.ctx;
  transaction(db, () => {
    for (let i = 0; i < SESSIONS; i++) {
      const s = createSession(db, clock, {
        workspace: app.workspace,
        model: "bench-model",
        title: i % 10 === 9 ? undefined : `Session ${i}: notes on topic ${i % 97}`,
      });
      if (i % 10 === 9) continue; // some empty Untitled sessions: hidden from the list
      appendMessages(db, clock, s.session_id, [
        { role: "user", content: `question ${i} about something fairly ordinary` },
        {
          role: "assistant",
          content: `an answer of moderate length for question ${i}. `.repeat(4),
        },
        { role: "user", content: "thanks" },
      ]);
    }
  });
  const seedMs = performance.now() - seedStart;

  const sample = createSession(db, clock, { workspace: app.workspace, title: "Long one" });
  for (let i = 0; i < 20; i++) {
    appendMessages(
      db,
      clock,
      sample.session_id,
      Array.from({ length: 50 }, (_, j) => ({
        role: j % 2 ? "assistant" as const : "user" as const,
        content: `message ${i * 50 + j} `.repeat(20),
      })),
    );
  }
  console.log(
    `${SESSIONS} sessions (a tenth empty and Untitled, so hidden), 3 messages each; seeded in ` +
      `${(seedMs / 1000).toFixed(1)} s. ${CALLS} calls per route after 5 warm-ups.`,
  );
  await bench("/api/sessions", (body) => `${(body.sessions as unknown[]).length} rows`);
  await bench(
    "/api/sessions?include_archived=1",
    (b) => `${(b.sessions as unknown[]).length} rows`,
  );
  await bench("/api/sessions/search?q=ordinary&content=1", (b) => `${b.count} hits`);
  await bench(
    `/api/session?session_id=${sample.session_id}&msg_limit=50`,
    (b) => `50 of ${(b.session as { message_count: number }).message_count} messages`,
  );
} finally {
  await app.close();
}
