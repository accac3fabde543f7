// The single-binary build path without dl.deno.land: `deno compile` needs Deno's runtime
// binary from there, so this bundles the same entry (tools/bundle_app.ts lays files out the
// way compile embeds them), then runs it with exactly the permission flags of
// `deno task start` from a foreign working directory, and checks that pages, static assets,
// island bundles and the sandboxed file-tool worker all resolve relative to the app.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { bundleApp } from "../tools/bundle_app.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { readSse } from "./fixtures/sse_client.ts";

/** The permission flags of `deno task start` (deno.json is the one source of truth). */
async function startPermissionFlags(): Promise<string[]> {
  const deno = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const run = (deno.tasks.start as string).split("&&").map((s) => s.trim()).find((s) =>
    s.startsWith("deno run")
  )!;
  const flags = run.split(/\s+/).filter((w) =>
    w.startsWith("--allow-") || w.startsWith("--unstable-")
  );
  ok(!flags.includes("-A") && !flags.includes("--allow-all"), "start must not run with -A");
  return flags;
}

/**
 * Deno's own cache (npm packages included). The server runs with a throwaway HOME, which would
 * otherwise send it to the registry for every package first: a download race, not this test.
 */
async function denoCacheDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** The named variables of this process's environment that are set. */
function passThrough(...names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((n) => Deno.env.get(n) !== undefined ? [[n, Deno.env.get(n)!]] : []),
  );
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/**
 * Poll /health until it answers or the child exits. A bundled server loads every npm module
 * before it listens, which on a loaded 2-core machine took longer than the 20 s the old
 * count of polls allowed. The bound (3 minutes) only stops a server that hangs for good; the
 * error carries the child's own output, so a real start failure says what it was.
 */
async function waitForHealth(
  base: string,
  child: Deno.ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/health`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not listening yet */ }
    const exited = await Promise.race([
      child.status.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 100)),
    ]);
    if (exited) throw new Error(`the bundled server exited before it was healthy:\n${log()}`);
  }
  throw new Error(`the bundled server never became healthy:\n${log()}`);
}

Deno.test("the bundled console runs from a foreign directory with start's permissions", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "hermes-bundle-" });
  const dist = join(root, "dist");
  const foreign = join(root, "elsewhere");
  const workspace = join(root, "workspace");
  await Deno.mkdir(foreign, { recursive: true });
  await Deno.mkdir(workspace, { recursive: true });
  await Deno.writeTextFile(join(workspace, "notes.txt"), "read through the worker\n");
  await bundleApp(dist);

  const fake = startFakeProvider();
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const configPath = join(root, "config.yaml");
  await Deno.writeTextFile(
    configPath,
    `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...await startPermissionFlags(), join(dist, "main.js")],
    cwd: foreign,
    env: {
      HOME: root,
      DENO_DIR: await denoCacheDir(),
      // The machine's TLS trust, for any package the cache lacks (an intercepting proxy's CA).
      ...passThrough("NODE_EXTRA_CA_CERTS", "DENO_CERT", "DENO_TLS_CA_STORE"),
      HERMES_WEBUI_PORT: String(port),
      HERMES_WEBUI_STATE_DIR: join(root, "state"),
      HERMES_CONFIG_PATH: configPath,
      HERMES_WEBUI_DEFAULT_WORKSPACE: workspace,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  const drain = (async () => {
    while (true) {
      const { done, value } = await stderr.read();
      if (done) break;
      log += value;
    }
  })();
  try {
    await waitForHealth(base, child, () => log);

    await t.step("the page and its static assets resolve relative to the app", async () => {
      const page = await fetch(`${base}/`);
      strictEqual(page.status, 200);
      const html = await page.text();
      const chunk = html.match(/\/static\/_islands\/[\w.-]+\.js/)?.[0];
      ok(chunk, "the shell loads an island chunk");
      for (const path of ["/static/style.css", chunk]) {
        const res = await fetch(base + path);
        strictEqual(res.status, 200, path);
        ok((await res.arrayBuffer()).byteLength > 0, path);
      }
    });

    await t.step("a file tool runs in the sandboxed worker inside the bundle", async () => {
      fake.enqueue(
        { toolCalls: [{ id: "call_1", name: "read_file", args: { path: "notes.txt" } }] },
        { text: "done" },
      );
      // A script's proof: the console token from the state dir (SECURITY.md "HTTP surface").
      const token = (await Deno.readTextFile(join(root, "state", "csrf_token"))).trim();
      const headers = { "x-hermes-csrf-token": token };
      const created = await (await fetch(`${base}/api/session/new`, {
        method: "POST",
        body: "{}",
        headers,
      })).json();
      const started = await (await fetch(`${base}/api/chat/start`, {
        method: "POST",
        headers,
        body: JSON.stringify({ session_id: created.session.session_id, message: "read it" }),
      })).json();
      const { events } = await readSse(base, started.stream_id);
      const complete = events.find((e) => e.event === "tool_complete");
      ok(complete, `a tool_complete event (got ${events.map((e) => e.event).join(", ")})`);
      strictEqual(complete.data.is_error, false, complete.data.result_preview);
      ok(String(complete.data.result_preview).includes("read through the worker"));
      ok(events.some((e) => e.event === "stream_end"));
    });
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* already exited: the assertions below show its log */ }
    await child.status;
    await drain;
    await fake.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  ok(!/PermissionDenied|NotCapable/.test(log), `no permission errors in the server log:\n${log}`);
});
