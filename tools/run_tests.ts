// The test suite's runner (`deno task test`): type-check everything once, then run the lanes —
// the whole suite on the default backend (SQLite), the storage contract suite and the
// PostgreSQL-only tests on PostgreSQL — side by side, each a `deno test --no-check` of its own.
// It ends with the plain line `N passed, N failed, N skipped`, lists every ignored test with the
// reason its file printed (tests/fixtures/skip.ts), and fails when a lane failed or, under
// CI=true, when anything was skipped: CI installs everything the suite needs.
//
//   deno run -A tools/run_tests.ts                 the default lanes (sqlite, postgres)
//   deno run -A tools/run_tests.ts --lane slow     the slow lane (`deno task test:slow`)
//   deno run -A tools/run_tests.ts --lane postgres --lane sqlite --serial

import postgres from "postgres";
import { PgDatabase } from "../lib/storage/postgres/pg_database.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/hermes_test";

interface Lane {
  name: string;
  /** What `deno test` runs: folders or files below the checkout. */
  paths: string[];
  ignore?: string[];
  env?: Record<string, string>;
  /** Before the lane runs (more environment for it), and after. */
  setUp?: () => Promise<Record<string, string>>;
  tearDown?: () => Promise<void>;
}

/** Everything below tests/ that is neither PostgreSQL-only nor slow, on SQLite. */
const SQLITE: Lane = {
  name: "sqlite",
  paths: ["tests/"],
  ignore: ["tests/postgres/", "tests/slow/"],
};

/**
 * The storage contract suite again on PostgreSQL, and the tests only PostgreSQL can run. Each
 * database a test opens is a clone of one template migrated once for the run
 * (HERMES_DATABASE_TEMPLATE; lib/storage/postgres/pg_database.ts), dropped afterwards.
 */
function postgresLane(): Lane {
  const url = Deno.env.get("HERMES_TEST_DATABASE_URL") ?? DEFAULT_DATABASE_URL;
  const template = `${new URL(url).pathname.slice(1) || "postgres"}_template`;
  return {
    name: "postgres",
    paths: ["tests/storage/", "tests/postgres/"],
    env: { HERMES_DATABASE_URL: url, HERMES_DATABASE_ISOLATE: "1" },
    async setUp() {
      const started = performance.now();
      await dropClones(url, template);
      await adminQuery(url, `CREATE DATABASE "${template}"`);
      const templateUrl = new URL(url);
      templateUrl.pathname = `/${template}`;
      const db = new PgDatabase(templateUrl.toString(), { schema: null });
      try {
        await db.migrate();
      } finally {
        await db.close(); // no connection left on the template: it is cloned next
      }
      console.log(`postgres: template database ${template} migrated in ${seconds(started)} s`);
      return { HERMES_DATABASE_TEMPLATE: template };
    },
    tearDown: () => dropClones(url, template),
  };
}

async function adminQuery(url: string, text: string): Promise<Record<string, unknown>[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return [...await sql.unsafe(text)];
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** Drop the template and every database cloned from it (this run's, or a crashed run's). */
async function dropClones(url: string, template: string): Promise<void> {
  const rows = await adminQuery(
    url,
    `SELECT datname FROM pg_database WHERE datname = '${template}'
     OR starts_with(datname, '${template}_')`,
  );
  for (const { datname } of rows) {
    await adminQuery(url, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

/**
 * Full-size fuzzing, the largest repositories and catalogs (the same tests as the default run,
 * at full size: tests/fixtures/scale.ts), and the container image (tests/slow/).
 */
const SLOW: Lane = {
  name: "slow",
  paths: [
    "tests/slow/",
    "tests/fuzz_test.ts",
    "tests/git_panel_test.ts",
    "tests/model_catalog_test.ts",
  ],
  env: { HERMES_TEST_SCALE: "full" },
};

export interface LaneResult {
  name: string;
  passed: number;
  failed: number;
  ignored: number;
  steps: { passed: number; failed: number; ignored: number };
  /** Ignored tests and steps, as `file => name`. */
  ignoredTests: string[];
  /** `test name` → the reason its file printed. */
  reasons: Map<string, string>;
  /** Whether deno test printed its summary at all (a crash prints none). */
  summarized: boolean;
  code: number;
  seconds: number;
}

/** Read one lane's output (see tests/fixtures/skip.ts for the SKIP lines). */
export function parseLaneOutput(name: string, text: string): Omit<LaneResult, "code" | "seconds"> {
  const result = {
    name,
    passed: 0,
    failed: 0,
    ignored: 0,
    steps: { passed: 0, failed: 0, ignored: 0 },
    ignoredTests: [] as string[],
    reasons: new Map<string, string>(),
    summarized: false,
  };
  for (const line of text.split("\n")) {
    const skip = /SKIP (.+?): (.+)$/.exec(line);
    if (skip) result.reasons.set(skip[1].trim(), skip[2].trim());
    // `./file => test ... ignored (0ms)` (parallel), `test ... ignored` or `  step ... ignored`.
    const ignored = /^\s*(?:(\S+) => )?(.+?) \.\.\. ignored \(/.exec(line);
    if (ignored) result.ignoredTests.push(`${ignored[1] ?? name} => ${ignored[2]}`);
    const summary = /^(?:ok|FAILED) \| (.*)$/.exec(line);
    if (!summary) continue;
    result.summarized = true;
    for (const part of summary[1].split("|")) {
      const m = /(\d+) (passed|failed|ignored)(?: \((\d+) steps?\))?/.exec(part);
      if (!m) continue;
      const kind = m[2] as "passed" | "failed" | "ignored";
      result[kind] += Number(m[1]);
      result.steps[kind] += Number(m[3] ?? 0);
    }
  }
  return result;
}

/** Run `deno test` for one lane, streaming its output with a `[lane]` prefix. */
async function runLane(lane: Lane, prefix: boolean): Promise<LaneResult> {
  const started = performance.now();
  let extraEnv: Record<string, string> = {};
  try {
    extraEnv = await lane.setUp?.() ?? {};
  } catch (err) {
    console.error(`lane ${lane.name}: could not set up: ${(err as Error).message}`);
    return { ...parseLaneOutput(lane.name, ""), code: 1, seconds: 0 };
  }
  try {
    return await runDenoTest(lane, extraEnv, prefix, started);
  } finally {
    await lane.tearDown?.().catch((err) =>
      console.error(`lane ${lane.name}: could not clean up: ${(err as Error).message}`)
    );
  }
}

async function runDenoTest(
  lane: Lane,
  extraEnv: Record<string, string>,
  prefix: boolean,
  started: number,
): Promise<LaneResult> {
  const args = ["test", "--no-check", "-A", "--parallel"];
  if (lane.ignore?.length) args.push(`--ignore=${lane.ignore.join(",")}`);
  args.push(...lane.paths);
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...lane.env, ...extraEnv },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const tag = prefix ? `[${lane.name}] ` : "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    let pending = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        text += line + "\n";
        console.log(tag + line);
      }
    }
    if (pending) {
      text += pending + "\n";
      console.log(tag + pending);
    }
  };
  await Promise.all([pump(child.stdout), pump(child.stderr)]);
  const { code } = await child.status;
  const seconds = (performance.now() - started) / 1000;
  return { ...parseLaneOutput(lane.name, text), code, seconds };
}

async function typeCheck(): Promise<boolean> {
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["check", "main.ts", "dev.ts", "tests/", "tools/"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
  }).spawn().status;
  console.log(`type-check: ${code === 0 ? "ok" : "FAILED"} in ${seconds(started)} s`);
  return code === 0;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);

/** The closing report; returns the process exit code. */
export function report(results: LaneResult[], ci: boolean, checked: boolean): {
  lines: string[];
  code: number;
} {
  const lines: string[] = [""];
  let passed = 0, failed = checked ? 0 : 1, skipped = 0;
  for (const r of results) {
    const crashed = !r.summarized || (r.code !== 0 && r.failed === 0);
    lines.push(
      `lane ${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.ignored} skipped` +
        ` (steps: ${r.steps.passed} passed, ${r.steps.failed} failed, ${r.steps.ignored} skipped)` +
        ` in ${r.seconds.toFixed(0)} s${crashed ? ` — deno test exited ${r.code}` : ""}`,
    );
    passed += r.passed;
    failed += r.failed + (crashed ? 1 : 0);
    skipped += r.ignored + r.steps.ignored;
  }
  const ignored = results.flatMap((r) =>
    r.ignoredTests.map((t) => {
      const test = t.split(" => ").slice(1).join(" => ");
      // A step is listed as `test ... step`; its SKIP line names the step alone.
      const reason = r.reasons.get(test) ?? r.reasons.get(test.split(" ... ").at(-1)!);
      return `  [${r.name}] ${t}: ${reason ?? "no reason printed"}`;
    })
  );
  if (ignored.length) lines.push("", `skipped (${ignored.length}):`, ...ignored);
  let code = failed > 0 ? 1 : 0;
  if (ci && skipped > 0) {
    lines.push(
      "",
      `CI=true: ${skipped} skipped — CI installs everything the suite needs, so a skip fails the run`,
    );
    code = 1;
  }
  lines.push("", `${passed} passed, ${failed} failed, ${skipped} skipped`);
  return { lines, code };
}

if (import.meta.main) {
  const argv = [...Deno.args];
  const names = argv.flatMap((a, i) => a === "--lane" ? [argv[i + 1]] : []);
  const serial = argv.includes("--serial");
  const all: Record<string, () => Lane> = {
    sqlite: () => SQLITE,
    postgres: postgresLane,
    slow: () => SLOW,
  };
  const chosen = (names.length ? names : ["sqlite", "postgres"]).map((n) => {
    if (!all[n]) {
      console.error(`unknown lane ${n}: one of ${Object.keys(all).join(", ")}`);
      Deno.exit(2);
    }
    return all[n]();
  });
  const started = performance.now();
  const checked = await typeCheck();
  let results: LaneResult[] = [];
  if (checked) {
    const prefix = !serial && chosen.length > 1;
    if (serial) { for (const lane of chosen) results.push(await runLane(lane, prefix)); }
    else results = await Promise.all(chosen.map((lane) => runLane(lane, prefix)));
  }
  const { lines, code } = report(results, Deno.env.get("CI") === "true", checked);
  lines.splice(lines.length - 1, 0, `wall time: ${seconds(started)} s`, "");
  console.log(lines.join("\n"));
  Deno.exit(code);
}
