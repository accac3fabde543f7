// Development entry (`deno task dev`): build the islands, serve main.ts, and watch the tree
// with Deno.watchFs. A change to client code rebuilds the bundles (the server re-reads their
// manifest per page, so a reload picks them up); a change to server code restarts main.ts;
// adding or removing a route or island regenerates routes.gen.ts first.
import * as esbuild from "esbuild";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIslands, formatReport } from "./tools/build_islands.ts";
import { writeManifestIfChanged } from "./tools/gen_manifest.ts";

const ROOT = dirname(fileURLToPath(import.meta.url));
const WATCHED = ["islands", "components", "lib", "routes", "static", "main.ts", "deno.json"];
/** Folders whose code runs in the browser (through islands) — a change rebuilds bundles. */
const CLIENT = /^(islands|components|lib)\//;
/** What the server process loads — a change restarts it. */
const SERVER = /^(islands|components|lib|routes)\/|^(main\.ts|routes\.gen\.ts|deno\.json)$/;
const IGNORED = /^static\/_islands\/|(^|\/)\.|~$|\.tmp$|\.swp$/;
const SERVER_ARGS = [
  "run",
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi", // libc for the file tools' race-free opens (lib/sandbox/safe_fs.ts)
  "--allow-run=bash,bwrap,git,deno",
  "--allow-sys=hostname,osRelease,homedir",
  "main.ts",
];

const log = (msg: string) => console.log(`\x1b[2m[dev]\x1b[0m ${msg}`);

async function rebuild(): Promise<void> {
  const started = performance.now();
  try {
    const result = await buildIslands({ dev: true });
    log(`islands built in ${Math.round(performance.now() - started)} ms`);
    console.log(formatReport(result));
  } catch (err) {
    const errors = (err as { errors?: esbuild.Message[] }).errors;
    if (errors?.length) {
      console.error((await esbuild.formatMessages(errors, { kind: "error" })).join("\n"));
    } else console.error(err);
    log("island build failed; fix the error and save again");
  }
}

function rewriteManifestIfChanged(): void {
  if (writeManifestIfChanged()) log("routes.gen.ts updated");
}

let server: Deno.ChildProcess | null = null;

async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child) return;
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* exited meanwhile */ }
  }, 3000);
  await child.status;
  clearTimeout(timer);
}

async function startServer(): Promise<void> {
  await stopServer();
  server = new Deno.Command(Deno.execPath(), {
    args: SERVER_ARGS,
    cwd: ROOT,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

async function main(): Promise<void> {
  rewriteManifestIfChanged();
  await rebuild();
  await startServer();

  const paths = WATCHED.map((p) => join(ROOT, p)).filter((p) => {
    try {
      Deno.statSync(p);
      return true;
    } catch {
      return false;
    }
  });
  const watcher = Deno.watchFs(paths, { recursive: true });
  const shutdown = async () => {
    watcher.close();
    await stopServer();
    await esbuild.stop();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", shutdown);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", shutdown);

  const pending = new Map<string, Deno.FsEvent["kind"]>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy = Promise.resolve();
  const flush = () => {
    const changes = [...pending];
    pending.clear();
    busy = busy.then(async () => {
      const files = changes.map(([p]) => p);
      if (changes.some(([p, kind]) => /^(routes|islands)\//.test(p) && kind !== "modify")) {
        rewriteManifestIfChanged();
      }
      if (files.some((p) => CLIENT.test(p))) await rebuild();
      if (files.some((p) => SERVER.test(p))) {
        log(`restarting (${files.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""})`);
        await startServer();
      }
    });
  };
  log("watching for changes (Ctrl+C to stop)");
  for await (const event of watcher) {
    for (const abs of event.paths) {
      const rel = relative(ROOT, abs).split("\\").join("/");
      if (IGNORED.test(rel)) continue;
      pending.set(rel, event.kind);
    }
    if (pending.size === 0) continue;
    clearTimeout(timer);
    timer = setTimeout(flush, 120);
  }
}

if (import.meta.main) await main();
