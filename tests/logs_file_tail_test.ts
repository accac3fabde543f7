// GET /api/logs?file=…&tail=… in the original's shape, beside our own ring-buffer form of the
// same path: allowlisted files only (400 for an unknown name or a traversal attempt), a tail of
// 100/200/500/1000 lines (anything else means 200), a 4 MiB window with a `truncated` flag, and
// a missing file answered with empty lines and a hint that names no path.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import {
  LOG_WINDOW_BYTES,
  type LogFileTail,
  readLogFileTail,
} from "../lib/server/log_file_tail.ts";

const ANSWER_KEYS = ["file", "hint", "lines", "mtime", "tail", "total_bytes", "truncated"];

async function writeLog(app: TestApp, name: string, text: string, home = app.stateDir) {
  const dir = join(home, "logs");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, name), text);
}

function numbered(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `2026-05-04 INFO ${prefix} line ${i}`);
}

const getTail = (app: TestApp, file: string, tail: string | number) =>
  app.call<LogFileTail & { error?: string }>(
    "GET",
    `/api/logs?file=${encodeURIComponent(file)}&tail=${encodeURIComponent(String(tail))}`,
  );

Deno.test("each allowlisted log file is tailed in the original's shape", async () => {
  const app = await createTestApp();
  try {
    for (const key of ["agent", "errors", "gateway"]) {
      const lines = [...numbered(`synthetic-${key}`, 105), `2026-05-04 ERROR ${key} failed`];
      await writeLog(app, `${key}.log`, lines.join("\n") + "\n");
      const res = await getTail(app, key, 100);
      strictEqual(res.status, 200, JSON.stringify(res.body));
      deepStrictEqual(Object.keys(res.body).sort(), ANSWER_KEYS);
      strictEqual(res.body.file, key);
      strictEqual(res.body.tail, 100);
      deepStrictEqual(res.body.lines, lines.slice(-100));
      strictEqual(res.body.lines[0], `2026-05-04 INFO synthetic-${key} line 6`);
      strictEqual(res.body.truncated, false);
      strictEqual(
        res.body.total_bytes,
        (await Deno.stat(join(app.stateDir, "logs", `${key}.log`))).size,
      );
      ok(typeof res.body.mtime === "number" && res.body.mtime > 1e9, "mtime in epoch seconds");
      strictEqual(res.body.hint, "");
    }
    // The file name is matched without regard to case or surrounding blanks, as the original.
    strictEqual((await getTail(app, " Agent ", 100)).body.file, "agent");
    // Only `tail`, no `file`: the agent log, as the original defaults.
    const bare = await app.call<LogFileTail>("GET", "/api/logs?tail=100");
    strictEqual(bare.body.file, "agent");
  } finally {
    await app.close();
  }
});

Deno.test("a traversal attempt or an unknown file name is a 400 that reads nothing", async () => {
  const app = await createTestApp();
  try {
    await writeLog(app, "agent.log", "synthetic agent line\n");
    const bad = [
      "../../etc/passwd",
      "agent.log",
      "private",
      "/tmp/agent",
      "../logs/agent",
      "..%2F..%2Fetc%2Fpasswd",
      "agent\u0000",
      "constructor",
      "__proto__",
    ];
    for (const file of bad) {
      const res = await getTail(app, file, 200);
      strictEqual(res.status, 400, `file=${JSON.stringify(file)}`);
      ok(typeof res.body.error === "string" && /unknown log file/i.test(res.body.error));
      ok(!("lines" in res.body), "a refused request carries no lines");
    }
    // A raw (unencoded) traversal in the query string is refused the same way.
    const raw = await app.call<{ error: string }>("GET", "/api/logs?file=../../etc/passwd");
    strictEqual(raw.status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("an allowlisted name that is a symlink out of the logs folder is refused", async () => {
  const app = await createTestApp();
  const outside = await Deno.makeTempFile({ prefix: "hermes-outside-" });
  try {
    await Deno.writeTextFile(outside, "outside secret line\n");
    await Deno.mkdir(join(app.stateDir, "logs"), { recursive: true });
    await Deno.symlink(outside, join(app.stateDir, "logs", "errors.log"));
    const res = await getTail(app, "errors", 200);
    strictEqual(res.status, 400);
    ok(!JSON.stringify(res.body).includes("outside secret"));
  } finally {
    await Deno.remove(outside).catch(() => {});
    await app.close();
  }
});

Deno.test("tail is one of 100, 200, 500, 1000; anything else means 200", async () => {
  const app = await createTestApp();
  try {
    const lines = numbered("synthetic-errors", 1200);
    await writeLog(app, "errors.log", lines.join("\n") + "\n");
    const cases: Array<[string | number, number]> = [
      ["not-a-number", 200],
      [999999, 200],
      [0, 200],
      [-100, 200],
      [150, 200],
      ["1e3", 200],
      ["", 200],
      [100, 100],
      [200, 200],
      [500, 500],
      [1000, 1000],
      [" 500 ", 500],
    ];
    for (const [asked, expected] of cases) {
      const res = await getTail(app, "errors", asked);
      strictEqual(res.status, 200, `tail=${asked}`);
      strictEqual(res.body.tail, expected, `tail=${asked}`);
      deepStrictEqual(res.body.lines, lines.slice(-expected), `tail=${asked}`);
    }
    // Without a tail at all: the default.
    const none = await app.call<LogFileTail>("GET", "/api/logs?file=errors");
    strictEqual(none.body.tail, 200);
    strictEqual(none.body.lines.length, 200);
  } finally {
    await app.close();
  }
});

Deno.test("a log longer than the window is read from its end and flagged truncated", async () => {
  const app = await createTestApp();
  try {
    const huge = "x".repeat(LOG_WINDOW_BYTES + 64);
    await writeLog(app, "gateway.log", `${huge}\n2026-05-04 INFO synthetic tail survives\n`);
    const res = await getTail(app, "gateway", 1000);
    strictEqual(res.status, 200);
    strictEqual(res.body.tail, 1000);
    strictEqual(res.body.truncated, true);
    ok(res.body.total_bytes > LOG_WINDOW_BYTES);
    // The huge line began before the window: only its cut-off end was in reach, so it is
    // dropped rather than shown as if it were a whole line.
    deepStrictEqual(res.body.lines, ["2026-05-04 INFO synthetic tail survives"]);

    // A file exactly at the window is whole, and not truncated.
    const exact = "y".repeat(LOG_WINDOW_BYTES - 1) + "\n";
    await writeLog(app, "agent.log", exact);
    const whole = await getTail(app, "agent", 100);
    strictEqual(whole.body.truncated, false);
    strictEqual(whole.body.lines.length, 1);
    strictEqual(whole.body.lines[0].length, LOG_WINDOW_BYTES - 1);
  } finally {
    await app.close();
  }
});

Deno.test("a missing log file is empty lines and a hint that names no path", async () => {
  const app = await createTestApp();
  try {
    // No logs folder at all, then a folder without the file.
    for (const prepare of [() => Promise.resolve(), () => writeLog(app, "agent.log", "a\n")]) {
      await prepare();
      const res = await getTail(app, "gateway", 200);
      strictEqual(res.status, 200);
      deepStrictEqual(res.body, {
        file: "gateway",
        tail: 200,
        lines: [],
        truncated: false,
        total_bytes: 0,
        mtime: null,
        hint: res.body.hint,
      });
      ok(/not found/i.test(res.body.hint));
      ok(!res.body.hint.includes(app.stateDir), "the hint leaks the state path");
    }
    // A folder where the file should be is not a log file either.
    await Deno.mkdir(join(app.stateDir, "logs", "errors.log"));
    const dir = await getTail(app, "errors", 200);
    strictEqual(dir.status, 200);
    deepStrictEqual(dir.body.lines, []);
    strictEqual(dir.body.mtime, null);
  } finally {
    await app.close();
  }
});

Deno.test("the logs read are the active profile's", async () => {
  const app = await createTestApp();
  try {
    await writeLog(app, "agent.log", "default profile line\n");
    strictEqual((await app.call("POST", "/api/profile/create", { name: "work" })).status, 200);
    strictEqual((await app.call("POST", "/api/profile/switch", { name: "work" })).status, 200);
    await writeLog(app, "agent.log", "work profile line\n", join(app.stateDir, "profiles", "work"));
    deepStrictEqual((await getTail(app, "agent", 100)).body.lines, ["work profile line"]);
  } finally {
    await app.close();
  }
});

Deno.test("our own form of /api/logs still answers beside the original's", async () => {
  const app = await createTestApp();
  try {
    app.ctx.log.error("synthetic ring line");
    const ring = await app.call<{ logs: Array<{ message: string }>; last_seq: number }>(
      "GET",
      "/api/logs?level=ERROR",
    );
    strictEqual(ring.status, 200);
    ok(ring.body.logs.some((l) => l.message === "synthetic ring line"));
    strictEqual(typeof ring.body.last_seq, "number");
    ok(!("lines" in ring.body));
  } finally {
    await app.close();
  }
});

Deno.test("the tail reader walks back across chunks without splitting characters", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-logtail-" });
  try {
    // ~300 KB of multi-byte lines: the tail spans several 64 KiB reads, and chunk edges fall
    // inside characters.
    const lines = Array.from(
      { length: 1500 },
      (_, i) => `2026-05-04 INFO é ü ✓ 🚀 line ${i} ${"ж".repeat(i % 90)}`,
    );
    await Deno.writeTextFile(join(dir, "agent.log"), lines.join("\r\n") + "\r\n");
    const all = await readLogFileTail(dir, "agent", "1000");
    deepStrictEqual(all.lines, lines.slice(-1000));
    strictEqual(all.truncated, false);

    // With a small window the same file is truncated, and only whole lines come back.
    const small = await readLogFileTail(dir, "agent", "1000", { windowBytes: 10_000 });
    strictEqual(small.truncated, true);
    ok(small.lines.length > 0 && small.lines.length < 1000);
    deepStrictEqual(small.lines, lines.slice(-small.lines.length));

    // No final line break: the last line still counts.
    await Deno.writeTextFile(join(dir, "errors.log"), "one\n\ntwo");
    deepStrictEqual((await readLogFileTail(dir, "errors", "100")).lines, ["one", "", "two"]);
    await Deno.writeTextFile(join(dir, "errors.log"), "");
    deepStrictEqual((await readLogFileTail(dir, "errors", "100")).lines, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log reading never blocks: no synchronous file calls, no whole-file reads", async () => {
  for (const path of ["lib/server/log_file_tail.ts", "routes/api/logs.ts"]) {
    const source = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
    const code = source.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n");
    ok(!/\w+Sync\s*\(/.test(code), `${path} uses a synchronous call`);
    ok(!/readFile|readTextFile|readAll/.test(code), `${path} reads a whole file`);
  }
});
