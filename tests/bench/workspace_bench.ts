// Benchmark: the workspace panel's file views at scale. A 20,000-file tree (200 folders of 100
// files, plus 2,000 files at the root) is listed the way the panel does it, lazily: the root
// (GET /api/list, capped at 200 entries) and one folder, each timed as a median over many calls.
// Then GET /api/folder/download zips a 200 MB folder, streamed, and the throughput is printed
// with the server's peak RSS growth (the zip is never built in memory). Targets: a lazy listing
// ≤ 50 ms at 20k files; zip ≥ 50 MB/s.
import { join } from "node:path";
import { createTestApp } from "../helpers.ts";
import { createSession } from "../../lib/sessions/sessions.ts";

const LIST_TARGET_MS = 50;
const ZIP_TARGET_MBPS = 50;
const CALLS = 30;

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const app = await createTestApp();
try {
  const ws = app.workspace;
  const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
  let t0 = performance.now();
  for (let d = 0; d < 200; d++) {
    const dir = join(ws, `dir_${d}`);
    await Deno.mkdir(dir);
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(join(dir, `file_${f}.txt`), `${d}/${f}\n`);
    }
  }
  for (let f = 0; f < 2_000; f++) await Deno.writeTextFile(join(ws, `root_${f}.md`), "x\n");
  console.log(
    `tree: 22,000 files in 201 folders, made in ${(performance.now() - t0).toFixed(0)} ms`,
  );

  const time = async (path: string) => {
    const times: number[] = [];
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const res = await app.request("GET", path);
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(body)}`);
      if (i >= 3) times.push(performance.now() - s);
    }
    return median(times);
  };
  const root = await time(`/api/list?session_id=${sid}&path=.`);
  const folder = await time(`/api/list?session_id=${sid}&path=dir_42`);
  for (
    const [what, ms] of [["root (2,200 entries, 200 shown)", root], [
      "one folder (100)",
      folder,
    ]] as const
  ) {
    console.log(
      `list ${what}: median ${ms.toFixed(1)} ms (target ≤ ${LIST_TARGET_MS} ms, ` +
        `ratio ${(ms / LIST_TARGET_MS).toFixed(2)})`,
    );
  }

  // Zip throughput: 200 files of 1 MB (mixed content: half text-like, half random).
  const big = join(ws, "big");
  await Deno.mkdir(big);
  const rnd = new Uint8Array(1 << 20);
  for (let i = 0; i < rnd.length; i += 65536) crypto.getRandomValues(rnd.subarray(i, i + 65536));
  const text = new TextEncoder().encode("lorem ipsum dolor sit amet ".repeat(40_000)).subarray(
    0,
    1 << 20,
  );
  for (let i = 0; i < 200; i++) await Deno.writeFile(join(big, `f${i}.bin`), i % 2 ? rnd : text);
  const rssBefore = Deno.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 20);
  t0 = performance.now();
  const res = await app.request("GET", `/api/folder/download?session_id=${sid}&path=big`);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += chunk.length;
  const secs = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const mbps = 200 / secs;
  console.log(
    `zip 200 MB folder: ${secs.toFixed(2)} s, ${mbps.toFixed(0)} MB/s in, ` +
      `${(bytes / 1e6).toFixed(0)} MB out (target ≥ ${ZIP_TARGET_MBPS} MB/s, ratio ` +
      `${(mbps / ZIP_TARGET_MBPS).toFixed(2)}); RSS growth ${
        ((peak - rssBefore) / 1e6).toFixed(0)
      } MB`,
  );
} finally {
  await app.close();
}
