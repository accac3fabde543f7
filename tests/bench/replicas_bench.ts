// Benchmark: the console as replicas on PostgreSQL next to one server on SQLite. Two setups,
// each of real processes started as `deno task start` runs them, with the fake provider:
//   sqlite   — one server, the default backend: the run's writer is the client's reader;
//   postgres — replicas A and B sharing one database and state dir: the run starts on A and the
//              client reads it from B (B follows A through the journal and LISTEN/NOTIFY).
// For each: relay throughput (20,000 fixed-width token deltas written as fast as the fake can;
// tokens / (last token's arrival at the client − the fake's first write), median of 3 after a
// warm-up; target ≥ 20,000/s), added latency (1,000 deltas ~5 ms apart; arrival − write per
// token, p50 and p99; target p99 < 25 ms) and GET /api/sessions p50/p95 over 20 calls at 10,000
// imported sessions (imported into the writer, listed from the reader; target p50 ≤ 50 ms).
// Prints figures and ratios to the targets; asserts only that every token arrived and that the
// reader lists every imported session.
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/hermes_test):
// without one it fails, it never skips. `deno task bench --postgres` runs it.
import { join } from "node:path";
import postgres from "postgres";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import type { RecordedRequest, ScriptedResponse } from "../fixtures/fake_provider.ts";
import { type StartedServer, startFlags, startServer } from "../fixtures/start_server.ts";
import { readSse } from "../fixtures/sse_client.ts";
import { schemaForPath } from "../../lib/storage/postgres/pg_database.ts";
import { percentile } from "./percentile.ts";

const DATABASE_URL = Deno.env.get("BENCH_DATABASE_URL") ??
  Deno.env.get("HERMES_TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/hermes_test";
const TOKENS = 20_000;
const RUNS = 3;
const PACED = 1_000;
const PACE_MS = 5;
const SESSIONS = Number(Deno.env.get("BENCH_SESSIONS") ?? 10_000);
const IMPORT_CLIENTS = 8;
const LISTS = 20;
const TARGET = { rate: 20_000, latencyP99Ms: 25, listP50Ms: 50 };

// The sqlite setup must not inherit a PostgreSQL URL from whoever started the bench; the
// postgres setup gets its own explicitly.
Deno.env.delete("HERMES_DATABASE_URL");
Deno.env.delete("HERMES_DATABASE_ISOLATE");

/** Fixed-width distinct tokens, so an offset in the streamed text maps back to a token index. */
const WIDTH = 7;
const token = (i: number) => `t${String(i).padStart(5, "0")} `;
const pieces = (n: number) => Array.from({ length: n }, (_, i) => token(i));

/**
 * Each run's answer, keyed by a tag in its user message and taken once: anything else the
 * console asks the model (the session title after a first answer) gets a short reply instead of
 * eating a run's script.
 */
const scripts = new Map<string, ScriptedResponse>();
let runCounter = 0;
function respond(req: RecordedRequest): ScriptedResponse {
  const messages = req.body?.messages ?? [];
  const last = messages.findLast((m: { role: string }) => m.role === "user");
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
  const tag = /bench-run-\d+/.exec(text ?? "")?.[0];
  const script = tag ? scripts.get(tag) : undefined;
  if (tag && script) {
    scripts.delete(tag);
    return script;
  }
  return { text: "Bench session" };
}

interface Setup {
  name: string;
  /** Where runs start and sessions are imported. */
  writer: StartedServer;
  /** Where the client streams runs and lists sessions. */
  reader: StartedServer;
}

interface Figures {
  rates: number[];
  events: number;
  latencyP50: number;
  latencyP99: number;
  importSecs: number;
  listP50: number;
  listP95: number;
  /** The first call after the import (a cache miss). */
  listFirst: number;
  listBytes: number;
}

async function postJson<T>(server: StartedServer, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hermes-csrf-token": server.token },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/**
 * One run of `n` tokens in a fresh session (no compression of a long transcript), started on
 * the writer and read from the reader; the arrival time of each token at the client.
 */
async function relay(setup: Setup, n: number, script: ScriptedResponse) {
  const tag = `bench-run-${++runCounter}`;
  scripts.set(tag, { text: pieces(n), noUsage: true, ...script });
  const { session } = await postJson<{ session: { session_id: string } }>(
    setup.writer,
    "/api/session/new",
    {},
  );
  const { stream_id } = await postJson<{ stream_id: string }>(setup.writer, "/api/chat/start", {
    session_id: session.session_id,
    message: `${tag}: go`,
  });
  const at = new Array<number>(n).fill(NaN);
  let length = 0;
  let events = 0;
  const result = await readSse(setup.reader.base, stream_id, {
    onEvent(e, t) {
      if (e.event !== "token") return;
      events++;
      const before = Math.floor(length / WIDTH);
      length += e.data.text.length;
      const after = Math.min(n, Math.floor(length / WIDTH));
      for (let i = before; i < after; i++) at[i] = t;
    },
  });
  if (result.status !== 200 || !result.closedByServer || length !== n * WIDTH) {
    const kinds = [...new Set(result.events.map((e) => e.event))].join(",");
    throw new Error(
      `${setup.name}: run ${tag} relayed ${length / WIDTH} of ${n} tokens ` +
        `(status ${result.status}, closed by server ${result.closedByServer}, events ${kinds})`,
    );
  }
  await new Promise((r) => setTimeout(r, 300)); // let the title request and the writes settle
  return { at, events };
}

/** `SESSIONS` sessions × 6 messages into the writer, 8 clients in parallel; seconds taken. */
async function importSessions(writer: StartedServer): Promise<number> {
  const importOne = async (i: number) => {
    const t = 1_700_000_000 + i;
    const messages = Array.from({ length: 6 }, (_, k) => ({
      role: k % 2 === 0 ? "user" : "assistant",
      content: k % 2 === 0
        ? `question ${i}.${k} about something fairly ordinary`
        : `An answer of ordinary length for session ${i}, step ${k}. `.repeat(4),
      timestamp: t + k,
    }));
    await postJson(writer, "/api/session/import", {
      title: `Session ${i}: notes on topic ${i % 97}`,
      messages,
    });
  };
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: IMPORT_CLIENTS }, async () => {
    while (next < SESSIONS) await importOne(next++);
  }));
  return (performance.now() - t0) / 1000;
}

async function measure(setup: Setup): Promise<Figures> {
  console.log(`\n${setup.name}: writer ${setup.writer.base}, reader ${setup.reader.base}`);
  /** A full-speed run: the rate from the fake's first write to the last token's arrival. */
  const fullSpeed = async () => {
    let firstWrite = NaN;
    const got = await relay(setup, TOKENS, {
      onTextDelta: (i, t) => (i === 0 ? (firstWrite = t) : 0),
    });
    return { rate: TOKENS / ((got.at[TOKENS - 1] - firstWrite) / 1000), events: got.events };
  };
  await fullSpeed(); // warm-up: JIT, the AI SDK, the database's caches
  const rates: number[] = [];
  let events = 0;
  for (let run = 0; run < RUNS; run++) {
    const r = await fullSpeed();
    rates.push(r.rate);
    events = r.events;
  }
  console.log(
    `  throughput runs: ${rates.map((r) => Math.round(r).toLocaleString("en")).join(", ")} ` +
      `tokens/s (${events} token events for ${TOKENS.toLocaleString("en")} deltas)`,
  );

  const writtenAt = new Array<number>(PACED).fill(NaN);
  const paced = await relay(setup, PACED, {
    delayMs: PACE_MS,
    onTextDelta: (i, t) => (writtenAt[i] = t),
  });
  const byToken = paced.at.map((t, i) => t - writtenAt[i]);
  const added = [...byToken].sort((a, b) => a - b);
  // Which tokens were slowest: a run of neighbours is one stall (GC, a busy CPU), scattered
  // ones are the relay's own pace; the first few would be the reader connecting late.
  const worst = byToken.map((ms, i) => ({ ms, i })).sort((x, y) => y.ms - x.ms).slice(0, 5);
  console.log(
    `  latency: ${PACED} deltas ${PACE_MS} ms apart in ${paced.events} token events; ` +
      `min ${added[0].toFixed(2)} ms; slowest ${
        worst.map((w) => `#${w.i} ${w.ms.toFixed(1)} ms`).join(", ")
      }`,
  );

  const importSecs = await importSessions(setup.writer);
  console.log(
    `  imported ${SESSIONS.toLocaleString("en")} sessions into the writer in ` +
      `${importSecs.toFixed(1)} s (${(SESSIONS / importSecs).toFixed(0)}/s)`,
  );
  const times: number[] = [];
  let listBytes = 0;
  for (let i = 0; i < LISTS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${setup.reader.base}/api/sessions`);
    const text = await res.text();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`GET /api/sessions → ${res.status}: ${text.slice(0, 300)}`);
    listBytes = text.length;
    const count = (JSON.parse(text) as { count: number }).count;
    if (count < SESSIONS) {
      throw new Error(`${setup.name}: the reader lists ${count} of the ${SESSIONS} sessions`);
    }
  }
  // The first call builds the list; the next ones are served from the cache it fills until the
  // sessions table changes (lib/sessions/session_list_cache.ts), so p50 and p95 are warm figures.
  const listFirst = times[0];
  times.sort((a, b) => a - b);
  return {
    rates: rates.sort((a, b) => a - b),
    events,
    latencyP50: percentile(added, 50),
    latencyP99: percentile(added, 99),
    importSecs,
    listP50: percentile(times, 50),
    listP95: percentile(times, 95),
    listFirst,
    listBytes,
  };
}

function printTable(sqlite: Figures, pg: Figures): void {
  const rate = (f: Figures) => percentile(f.rates, 50);
  const int = (n: number) => Math.round(n).toLocaleString("en");
  const ms = (n: number) => n.toFixed(2);
  const rows: Array<[string, (f: Figures) => number, (n: number) => string, string, number?]> = [
    ["relay throughput, tokens/s (median of 3)", rate, int, `≥ ${int(TARGET.rate)}`, TARGET.rate],
    ["added latency p50, ms", (f) => f.latencyP50, ms, "", undefined],
    [
      "added latency p99, ms",
      (f) => f.latencyP99,
      ms,
      `< ${TARGET.latencyP99Ms}`,
      TARGET.latencyP99Ms,
    ],
    [
      `GET /api/sessions p50, ms (${int(SESSIONS)})`,
      (f) => f.listP50,
      ms,
      `≤ ${TARGET.listP50Ms}`,
      TARGET.listP50Ms,
    ],
    [`GET /api/sessions p95, ms`, (f) => f.listP95, ms, "", undefined],
    [`GET /api/sessions 1st call (uncached), ms`, (f) => f.listFirst, ms, "", undefined],
  ];
  const line = (cells: string[]) =>
    console.log(
      cells[0].padEnd(42) + cells.slice(1, 4).map((c) => c.padStart(14)).join("") +
        cells.slice(4).map((c) => c.padStart(17)).join(""),
    );
  console.log("");
  line(["figure", "sqlite", "postgres A→B", "target", "sqlite/target", "postgres/target"]);
  for (const [label, get, fmt, target, goal] of rows) {
    const ratio = (f: Figures) => goal === undefined ? "" : (get(f) / goal).toFixed(2);
    line([label, fmt(get(sqlite)), fmt(get(pg)), target, ratio(sqlite), ratio(pg)]);
  }
  console.log(
    `(ratios: throughput ≥ 1 meets the target, latency and list ≤ 1 do; list body ` +
      `${(sqlite.listBytes / 1e6).toFixed(2)} MB on sqlite, ${
        (pg.listBytes / 1e6).toFixed(2)
      } MB on postgres)`,
  );
}

/** Fails with a plain message when no PostgreSQL answers (the bench never skips). */
async function checkPostgres(): Promise<void> {
  const sql = postgres(DATABASE_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
  } catch (err) {
    console.error(
      `replicas_bench needs PostgreSQL at ${DATABASE_URL} (set BENCH_DATABASE_URL; ` +
        `tools/ensure_postgres.sh starts one): ${(err as Error).message}`,
    );
    Deno.exit(1);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** The schema the replicas of `root` used (HERMES_DATABASE_ISOLATE=1), dropped with its rows. */
async function dropSchema(root: string): Promise<void> {
  const { schema } = schemaForPath(join(root, "state", "hermes.db"), true);
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const found = await sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`;
    if (found.length === 0) console.error(`schema ${schema} not found: nothing dropped`);
    else await sql.unsafe(`DROP SCHEMA "${schema}" CASCADE`);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function makeRoot(prefix: string, baseUrl: string): Promise<string> {
  const root = await Deno.makeTempDir({ prefix });
  await Deno.mkdir(join(root, "workspace"), { recursive: true });
  await Deno.writeTextFile(
    join(root, "config.yaml"),
    `model:\n  provider: custom\n  base_url: ${baseUrl}\n  default: fake-model\n`,
  );
  return root;
}

await checkPostgres();
const fake = startFakeProvider({ respond });
const flags = await startFlags();
const servers: StartedServer[] = [];
const roots: string[] = [];
let pgRoot: string | null = null;
try {
  const sqliteRoot = await makeRoot("hermes-replicas-bench-sqlite-", fake.baseUrl);
  roots.push(sqliteRoot);
  const single = await startServer(sqliteRoot, { flags });
  servers.push(single);
  const sqlite = await measure({ name: "sqlite (one server)", writer: single, reader: single });
  single.child.kill("SIGTERM");
  await single.child.status;
  servers.splice(servers.indexOf(single), 1);

  pgRoot = await makeRoot("hermes-replicas-bench-pg-", fake.baseUrl);
  roots.push(pgRoot);
  const env = { HERMES_DATABASE_URL: DATABASE_URL, HERMES_DATABASE_ISOLATE: "1" };
  const a = await startServer(pgRoot, { flags, env });
  servers.push(a);
  const b = await startServer(pgRoot, { flags, env });
  servers.push(b);
  const pg = await measure({ name: "postgres (replicas A → B)", writer: a, reader: b });

  printTable(sqlite, pg);
} finally {
  for (const server of servers) {
    try {
      server.child.kill("SIGTERM");
    } catch { /* already gone */ }
    await server.child.status;
  }
  await fake.close();
  if (pgRoot) await dropSchema(pgRoot).catch((err) => console.error(`drop schema: ${err}`));
  for (const root of roots) await Deno.remove(root, { recursive: true }).catch(() => {});
}
