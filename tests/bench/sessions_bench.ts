// Benchmark: the sessions list at 1k, 10k and 100k sessions on SQLite. For each scale it prints
// the first page's server time (GET /api/sessions?limit=100 and the sidebar's own first page,
// through the app's fetch handler), the time Chromium takes to render the sidebar, the
// sidebar's DOM node count after scrolling through 2,000 rows, and the process RSS; at 10k also
// the unpaged answer, search and a long session's last messages. Then 100,000 sessions are
// imported through the HTTP API by 8 clients in parallel, and the rate at the start and at the
// end is printed. Targets: first page ≤ 10 ms at 100k; sidebar DOM ≤ 1,500 nodes at any count.
import { createTestApp, serveTestApp, type TestApp } from "../helpers.ts";
import { sql } from "../../lib/storage/db.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import { newSessionId } from "../../lib/ids.ts";
import { consoleToken } from "../../lib/security/request_proof.ts";
import { ensureIslandsBuilt, hasChromium, launchBrowser } from "../e2e/browser.ts";

const SCALES = [1_000, 10_000, 100_000];
const CALLS = 50;
const FIRST_PAGE_TARGET_MS = 10;
const DOM_TARGET = 1_500;
const IMPORTS = Number(Deno.args[1] ?? 100_000); // `… import 20000` for a quick look
const IMPORT_CLIENTS = 8;

export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Time `path` CALLS times: request in → whole body out. Returns the median (ms). */
async function bench(
  app: TestApp,
  path: string,
  describe: (body: string) => string,
  target?: number,
): Promise<number> {
  const call = async () => {
    const t0 = performance.now();
    const res = await app.request("GET", path);
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${text.slice(0, 300)}`);
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
  const ratio = target
    ? ` · target ${target} ms · median/target ${(median / target).toFixed(2)}`
    : "";
  console.log(
    `  GET ${path} (${describe(last)}, ${(last.length / 1e6).toFixed(2)} MB): median ` +
      `${median.toFixed(2)} ms · p95 ${p95.toFixed(2)} ms${ratio}`,
  );
  return median;
}

/**
 * `n` visible sessions spread over 60 days, straight into the table, 500 rows a statement
 * (seeding is not measured).
 */
async function seedSessions(app: TestApp, n: number, now: number): Promise<void> {
  const { db } = app.ctx;
  await db.transaction(async (tx) => {
    for (let from = 0; from < n; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(n, from + 500); i++) {
        const t = now - (n - i) * (60 * 86_400 / n);
        const title = `Session ${i}: notes on topic ${i % 97}`;
        rows.push(
          sql`(${newSessionId()}, ${title}, ${app.workspace}, 'bench-model', ${t}, ${t}, 3, ${t})`,
        );
      }
      await tx.run(
        sql`INSERT INTO sessions (session_id, title, workspace, model, created_at, updated_at,
              message_count, last_message_at) VALUES ${sql.join(rows)}`,
      );
    }
  });
}

/** The sidebar in Chromium: render time, and DOM nodes after scrolling through 2,000 rows. */
async function browserFigures(app: TestApp, n: number): Promise<void> {
  if (!hasChromium) {
    console.log("  Chromium: not installed, skipped");
    return;
  }
  const server = serveTestApp(app);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      await page.goto(`${server.url}/`);
      await page.locator("[data-vlist][data-virtual]").waitFor({ state: "attached" });
      times.push(performance.now() - t0);
    }
    const nav = await page.evaluate(() => {
      const e = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { response: e.responseEnd - e.requestStart, dcl: e.domContentLoadedEventEnd };
    });
    times.sort((a, b) => a - b);
    console.log(
      `  Chromium: sidebar rendered and live in ${
        percentile(times, 50).toFixed(0)
      } ms (median of ` +
        `4 loads; HTML ${nav.response.toFixed(0)} ms, DOMContentLoaded ${nav.dcl.toFixed(0)} ms)`,
    );
    const before = await page.evaluate(() =>
      document.querySelector("#sidebar")!.querySelectorAll("*").length
    );
    const rowH = await page.locator(".session-row").first().evaluate((r) =>
      (r as HTMLElement).offsetHeight
    );
    let maxNodes = before;
    const t0 = performance.now();
    const wanted = Math.min(2_000, n - 30); // the last screenful cannot scroll past
    for (let scrolled = 0, stuck = 0; scrolled < wanted * rowH && stuck < 100;) {
      const step = await page.locator(".session-list").evaluate((el) => {
        const before = el.scrollTop;
        el.scrollTop += el.clientHeight;
        return el.scrollTop - before;
      });
      await page.waitForTimeout(step > 0 ? 16 : 100); // at the loaded end: let the next page in
      scrolled += step;
      stuck = step > 0 ? 0 : stuck + 1;
      const n = await page.evaluate(() =>
        document.querySelector("#sidebar")!.querySelectorAll("*").length
      );
      maxNodes = Math.max(maxNodes, n);
    }
    const rows = await page.locator(".session-row").count();
    console.log(
      `  Chromium: scrolled through ${wanted.toLocaleString("en")} rows in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s;` +
        ` sidebar DOM ${before} nodes at first, at most ${maxNodes} while scrolling (${rows} rows ` +
        `in the DOM) · target ${DOM_TARGET} · max/target ${(maxNodes / DOM_TARGET).toFixed(2)}`,
    );
  } finally {
    await browser.close();
    await server.shutdown();
  }
}

async function scale(n: number): Promise<void> {
  let now = 1_700_000_000.5;
  const app = await createTestApp({ clock: () => (now += 0.001) });
  try {
    const t0 = performance.now();
    await seedSessions(app, n, now);
    console.log(
      `\n${n.toLocaleString("en")} sessions (seeded in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s)`,
    );
    await bench(app, "/api/sessions?limit=100", (b) => {
      const body = JSON.parse(b);
      return `${body.sessions.length} of ${body.count} rows`;
    }, FIRST_PAGE_TARGET_MS);
    await bench(
      app,
      "/api/sessions?limit=100&cursor=" + await middleCursor(app, n),
      () => "a page in the middle",
      FIRST_PAGE_TARGET_MS,
    );
    await bench(
      app,
      "/partials/sidebar",
      (b) => `sidebar first page, ${b.match(/session-row/g)?.length ?? 0} rows`,
    );
    if (n === 10_000) {
      await bench(app, "/api/sessions", (b) => `unpaged, ${JSON.parse(b).sessions.length} rows`);
      const { db, clock } = app.ctx;
      const s = await createSession(db, clock, { workspace: app.workspace, title: "Long one" });
      await db.transaction(async (tx) => {
        for (let i = 0; i < 2_000; i++) {
          const hit = await createSession(tx, clock, {
            workspace: app.workspace,
            title: `chat ${i}`,
          });
          await appendMessages(tx, clock, hit.session_id, [
            { role: "user", content: `question ${i} about something fairly ordinary` },
          ]);
        }
        for (let i = 0; i < 20; i++) {
          await appendMessages(
            tx,
            clock,
            s.session_id,
            Array.from({ length: 50 }, (_, j) => ({
              role: j % 2 ? "assistant" as const : "user" as const,
              content: `message ${i * 50 + j} `.repeat(20),
            })),
          );
        }
      });
      await bench(app, "/api/sessions/search?q=ordinary&content=1", (b) => {
        const body = JSON.parse(b);
        return `${body.sessions.length} of ${body.count} hits`;
      });
      await bench(
        app,
        `/api/session?session_id=${s.session_id}&msg_limit=50`,
        () => "50 of 1,000 messages",
      );
    }
    await browserFigures(app, n);
    console.log(`  RSS ${mb(Deno.memoryUsage().rss)}`);
  } finally {
    await app.close();
  }
}

/** A cursor halfway down the list (walking there by pages is not what is timed). */
async function middleCursor(app: TestApp, n: number): Promise<string> {
  const row = (await app.ctx.db.get<{ pinned: number; updated_at: number; session_id: string }>(
    sql`SELECT pinned, updated_at, session_id FROM sessions ORDER BY pinned DESC, updated_at DESC,
       session_id DESC LIMIT 1 OFFSET ${Math.floor(n / 2)}`,
  ))!;
  const { encodeCursor } = await import("../../lib/sessions/session_page.ts");
  return encodeCursor({
    pinned: row.pinned ? 1 : 0,
    updated_at: row.updated_at,
    session_id: row.session_id,
  });
}

/** 100,000 imports over HTTP by 8 clients; the rate of the first and the last 10,000. */
async function importAtScale(): Promise<void> {
  const app = await createTestApp();
  const server = serveTestApp(app);
  try {
    const done: number[] = []; // completion time of each import, in order
    let next = 0;
    const body = (i: number) =>
      JSON.stringify({
        title: `Imported ${i}`,
        messages: [
          { role: "user", content: `imported question ${i}`, timestamp: 1_700_000_000 + i },
          { role: "assistant", content: `imported answer ${i}`, timestamp: 1_700_000_001 + i },
        ],
      });
    // A script outside the page carries the install's token (lib/security/request_proof.ts).
    const token = await consoleToken(app.ctx.security);
    const t0 = performance.now();
    const client = async () => {
      while (next < IMPORTS) {
        const i = next++;
        const res = await fetch(`${server.url}/api/session/import`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hermes-csrf-token": token },
          body: body(i),
        });
        if (res.status !== 200) throw new Error(`import ${i} → ${res.status}: ${await res.text()}`);
        await res.body?.cancel();
        done.push(performance.now());
        if (done.length % 10_000 === 0) {
          const k = done.length;
          const secs = (done[k - 1] - (k > 10_000 ? done[k - 10_001] : t0)) / 1000;
          console.log(
            `  ${k.toLocaleString("en")} imported · last 10,000 at ${(10_000 / secs).toFixed(0)}/s`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: IMPORT_CLIENTS }, client));
    const total = (performance.now() - t0) / 1000;
    const window = 10_000;
    const rate = (from: number) =>
      window / ((done[from + window - 1] - (from ? done[from - 1] : t0)) / 1000);
    const first = rate(0), last = rate(IMPORTS - window);
    console.log(
      `\nimport: ${IMPORTS.toLocaleString("en")} sessions through POST /api/session/import, ` +
        `${IMPORT_CLIENTS} clients, in ${total.toFixed(1)} s (${(IMPORTS / total).toFixed(0)}/s)`,
    );
    console.log(
      `  first 10,000: ${first.toFixed(0)}/s · last 10,000: ${last.toFixed(0)}/s · ` +
        `last/first ${(last / first).toFixed(2)} · RSS ${mb(Deno.memoryUsage().rss)}`,
    );
    await bench(app, "/api/sessions?limit=100", (b) => {
      const body = JSON.parse(b);
      return `after the import: ${body.sessions.length} of ${body.count} rows`;
    }, FIRST_PAGE_TARGET_MS);
  } finally {
    await server.shutdown();
    await app.close();
  }
}

if (hasChromium) await ensureIslandsBuilt();
const only = Deno.args[0]; // "scales" or "import", for a quicker run by hand
if (only !== "import") { for (const n of SCALES) await scale(n); }
if (only !== "scales") await importAtScale();
