// Benchmark: the real server's memory. Starts main.ts as a subprocess with the `start` task's
// exact `deno run` flags (read from deno.json), then prints its resident set (VmRSS from
// /proc): idle after start; after importing 10,000 sessions × 6 messages through
// POST /api/session/import (8 in parallel); then its peak while it lists them whole 20 times and
// 4 clients list a page and search (title and content) for 8 s, the peak counter reset after the
// import (/proc/PID/clear_refs), with GET /api/sessions and search p50/p95 beside it. Targets
// (issue 28): idle ≤ 90 MB; listing and searching ≤ 150 MB at 10,000 sessions and ≤ 170 MB at
// 50,000 (BENCH_SESSIONS=50000); list p50 ≤ 20 ms at 10,000 and ≤ 197 ms at 50,000; search p50
// ≤ 4 ms at 10,000.
import { join } from "node:path";
import { percentile } from "./percentile.ts";

const SESSIONS = Number(Deno.env.get("BENCH_SESSIONS") ?? 10_000);
const PARALLEL = 8;
const LISTS = 20;
const LOAD_SECONDS = 8;
const LOAD_CLIENTS = 4;
const AT_50K = SESSIONS >= 50_000;
const TARGET = {
  idleMb: 90,
  loadedMb: AT_50K ? 170 : 150,
  listP50Ms: AT_50K ? 197 : 20,
  searchP50Ms: 4,
};

/** The `start` task's `deno run` arguments, without the script. */
async function startArgs(): Promise<string[]> {
  const deno = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const cmd = (deno.tasks.start as string).split("&&").map((s) => s.trim()).find((s) =>
    s.startsWith("deno run")
  )!;
  return cmd.split(/\s+/).slice(2).filter((w) => w !== "main.ts");
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => `${n.toFixed(1)} MB`;

const root = await Deno.makeTempDir({ prefix: "hermes-membench-" });
const stateDir = join(root, "state");
const workspace = join(root, "workspace");
await Deno.mkdir(workspace, { recursive: true });
await Deno.writeTextFile(
  join(root, "config.yaml"),
  "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: bench-model\n",
);
const port = freePort();
const base = `http://127.0.0.1:${port}`;
// BENCH_EXTRA_FLAGS="--v8-flags=…" tries flags before they go into the start task.
const args = [
  ...(Deno.env.get("BENCH_EXTRA_FLAGS")?.split(" ").filter(Boolean) ?? []),
  ...await startArgs(),
];
console.log(`deno run ${args.join(" ")} main.ts`);
const child = new Deno.Command(Deno.execPath(), {
  args: ["run", ...args, new URL("../../main.ts", import.meta.url).pathname],
  env: {
    HOME: root,
    // The warm module cache a real start uses (a fresh HOME would mean a cold, larger start).
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HERMES_WEBUI_PORT: String(port),
    HERMES_WEBUI_STATE_DIR: stateDir,
    HERMES_WEBUI_DEFAULT_WORKSPACE: workspace,
    HERMES_CONFIG_PATH: join(root, "config.yaml"),
    NO_COLOR: "1",
  },
  stdout: "null",
  stderr: "inherit",
}).spawn();

try {
  let up = false;
  for (let i = 0; i < 300 && !up; i++) {
    try {
      const res = await fetch(`${base}/health`);
      await res.body?.cancel();
      up = res.ok;
    } catch { /* not yet */ }
    if (!up) await sleep(100);
  }
  if (!up) throw new Error("the server never became healthy");
  const token = (await Deno.readTextFile(join(stateDir, "csrf_token")).catch(() => "")).trim();
  await sleep(3000); // let start-up work (catalog, probes) settle
  const idle = memory(child.pid);

  const importOne = async (i: number) => {
    const t = 1_700_000_000 + i;
    const messages = Array.from({ length: 6 }, (_, k) => ({
      role: k % 2 === 0 ? "user" : "assistant",
      content: k % 2 === 0
        ? `question ${i}.${k} about something fairly ordinary`
        : `An answer of ordinary length for session ${i}, step ${k}. `.repeat(4),
      timestamp: t + k,
    }));
    const res = await fetch(`${base}/api/session/import`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hermes-csrf-token": token },
      body: JSON.stringify({ title: `Session ${i}: notes on topic ${i % 97}`, messages }),
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`import ${i} → ${res.status}`);
  };
  const importStart = performance.now();
  let next = 0;
  let peakDuring = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < SESSIONS) {
      const i = next++;
      await importOne(i);
      if (i % 1000 === 0) peakDuring = Math.max(peakDuring, memory(child.pid).rss);
    }
  }));
  const importSecs = (performance.now() - importStart) / 1000;
  const afterImport = memory(child.pid);
  peakDuring = Math.max(peakDuring, afterImport.peak);
  // From here the peak counts listing and searching only ("5" resets VmHWM to the current RSS).
  await Deno.writeTextFile(`/proc/${child.pid}/clear_refs`, "5");

  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < LISTS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/sessions`);
    const text = await res.text();
    times.push(performance.now() - t0);
    bytes = text.length;
    if (!res.ok) throw new Error(`GET /api/sessions → ${res.status}`);
  }
  times.sort((a, b) => a - b);

  // One client searching titles, for the p50 beside the figure (4 ms at 10,000).
  const queries = ["topic 42", "ordinary", "notes", "session 777", "something"];
  const searchTimes: number[] = [];
  for (let i = 0; i < LISTS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/sessions/search?q=${encodeURIComponent(queries[i % 5])}`);
    await res.arrayBuffer();
    searchTimes.push(performance.now() - t0);
    if (!res.ok) throw new Error(`search → ${res.status}`);
  }
  searchTimes.sort((a, b) => a - b);

  // Then clients paging and searching together (titles and content), as a busy console does.
  let searches = 0;
  let pageLoads = 0;
  const stopAt = performance.now() + LOAD_SECONDS * 1000;
  await Promise.all(Array.from({ length: LOAD_CLIENTS }, async (_, n) => {
    for (let i = 0; performance.now() < stopAt; i++) {
      const search = (i + n) % 2 === 1;
      const path = search
        ? `/api/sessions/search?q=${encodeURIComponent(queries[i % queries.length])}${
          i % 4 === 1 ? "&content=1" : ""
        }`
        : `/api/sessions?limit=50&offset=${(i * 50) % SESSIONS}`;
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${path} → ${res.status}`);
      if (search) searches++;
      else pageLoads++;
    }
  }));
  await sleep(2000);
  const loaded = memory(child.pid);
  const p50 = percentile(times, 50), p95 = percentile(times, 95);

  console.log(
    `idle after start        RSS ${mb(idle.rss)} · target ${TARGET.idleMb} MB · ratio ${
      (idle.rss / TARGET.idleMb).toFixed(2)
    }`,
  );
  console.log(
    `importing ${SESSIONS} sessions (${PARALLEL} parallel, ${importSecs.toFixed(1)} s)  ` +
      `peak ${mb(peakDuring)} · after ${mb(afterImport.rss)}`,
  );
  console.log(
    `listing and searching   peak (VmHWM) ${
      mb(loaded.peak)
    } · target ${TARGET.loadedMb} MB · ratio ${
      (loaded.peak / TARGET.loadedMb).toFixed(2)
    } · RSS after ${
      mb(loaded.rss)
    } (${LISTS} whole lists, then ${LOAD_CLIENTS} clients ${LOAD_SECONDS} s: ` +
      `${pageLoads} pages, ${searches} searches)`,
  );
  console.log(
    `GET /api/sessions (${(bytes / 1e6).toFixed(2)} MB)  p50 ${p50.toFixed(1)} ms · p95 ${
      p95.toFixed(1)
    } ms · target p50 ${TARGET.listP50Ms} ms · ratio ${(p50 / TARGET.listP50Ms).toFixed(2)}`,
  );
  const s50 = percentile(searchTimes, 50), s95 = percentile(searchTimes, 95);
  console.log(
    `GET /api/sessions/search  p50 ${s50.toFixed(1)} ms · p95 ${
      s95.toFixed(1)
    } ms (titles, 1 client) · target p50 ${TARGET.searchP50Ms} ms (the issue's figure at 10,000) · ratio ${
      (s50 / TARGET.searchP50Ms).toFixed(2)
    }`,
  );
} finally {
  try {
    child.kill("SIGTERM");
  } catch { /* already exited */ }
  await child.status;
  await Deno.remove(root, { recursive: true });
}
