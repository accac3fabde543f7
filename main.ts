// Production entry: load config, open the database, wire lib/, serve.
// `buildApp()` is exported so tests can drive the same app through its fetch handler.
import { manifest } from "./routes.gen.ts";
import { type AppConfig, ConfigError, isLoopbackHost, loadConfig } from "./lib/settings/config.ts";
import { type Db, openDatabase } from "./lib/storage/db.ts";
import { createRouter } from "./lib/server/file_router.ts";
import { createPageRenderer } from "./lib/server/render_page.ts";
import { type Clock, systemClock } from "./lib/ids.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import type { AppContext } from "./lib/server/app_context.ts";
import { applySettingsToConfig } from "./lib/settings/stored_settings.ts";
import { createSecurity, storedPasswordHash } from "./lib/security/auth.ts";
import { consoleToken } from "./lib/security/request_proof.ts";
import { McpManager } from "./lib/mcp/manager.ts";
import { resolveProviders } from "./lib/providers/provider_config.ts";
import { TaskScheduler } from "./lib/tasks/scheduler.ts";
import { createOtelTelemetry } from "./lib/telemetry/otel.ts";
import { createTaskRunner } from "./lib/tasks/task_runner.ts";
import { systemTimers } from "./lib/timers.ts";
import { createToolsRuntime, type ToolsRuntimeOptions } from "./lib/tools/runtime.ts";
import { installReplicaCommands } from "./lib/replicas/replica_commands.ts";
import { syncCatalogAcrossReplicas } from "./lib/replicas/catalog_sync.ts";
import { RunManager } from "./lib/engine/run_manager.ts";
import { createModelCatalog } from "./lib/models/model_catalog.ts";
import { createTerminalManager } from "./lib/terminal/terminal_manager.ts";
import { sandboxReadPaths } from "./lib/sandbox/mount_plan.ts";
import { LiveResponses } from "./lib/server/live_responses.ts";
import { exitOnSignals } from "./lib/server/graceful_shutdown.ts";

export interface BuildOptions {
  clock?: Clock;
  log?: Logger;
  /** Tool runtime overrides (timeouts, bubblewrap path) for tests. */
  tools?: ToolsRuntimeOptions;
}

export interface BuiltApp {
  ctx: AppContext;
  fetch: (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  close(): Promise<void>;
}

/**
 * Wire every subsystem for `config` and return the app's fetch handler. Async because the
 * stored settings are layered onto `config` before the first request (an async query).
 */
export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<BuiltApp> {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger();
  if (config.password) log.addSecret(config.password);
  const db = openDatabase(config.stateDir);
  try {
    // PostgreSQL connects, isolates and migrates in the background: a bad URL or a failed
    // migration fails the start here, with the database's own message.
    await db.ready();
    await applySettingsToConfig(db, config, log);
  } catch (err) {
    db.close();
    throw err;
  }
  // Every configured api key is a secret of the log from the start, not from the first chat.
  resolveProviders(config, log);
  const ctx: AppContext = {
    config,
    db,
    clock,
    log,
    startedAt: clock(),
    onClose: [],
    live: new LiveResponses(),
    security: createSecurity(config, db, clock),
    mcp: new McpManager({ config, log, clock }),
    tools: createToolsRuntime(config, opts.tools),
    // The settings writer (zod, the config writer) loads on the first reload, not at start.
    reloadConfig: () =>
      import("./lib/settings/settings.ts").then(({ reloadAppConfig }) => reloadAppConfig(ctx)),
    onProviderConfigChange: [],
    runs: new RunManager({ db, clock, log, leases: config.leases }),
    models: createModelCatalog({ getConfig: () => ctx.config, stateDir: config.stateDir, log }),
    tasks: undefined as unknown as TaskScheduler, // wired just below: its runner needs ctx
    // The person's terminals share the agent's sandbox (its status and masked paths).
    terminals: createTerminalManager({
      sandbox: {
        status: () => ctx.tools.commands.status(),
        get hiddenPaths() {
          return ctx.tools.commands.hiddenPaths;
        },
        get readPaths() {
          return ctx.tools.commands.readPaths;
        },
      },
      env: () => ({ PATH: ctx.config.env.PATH, LANG: ctx.config.env.LANG }),
    }),
  };
  // OpenTelemetry only when an OTLP endpoint is configured; its SDK loads on the first run.
  // Registered first so it closes last, after the runs it traces (onClose runs in reverse).
  const telemetry = createOtelTelemetry(config.env, log);
  if (telemetry) {
    ctx.runs.configure({ telemetry });
    ctx.onClose.push(() => telemetry.close());
  }
  // Standing goals judge each finished turn and may start the next one (lib/goals).
  ctx.runs.configure({
    onRunEnd: (run) => {
      // The goals code (and its evaluator's SDK) loads on the first finished run.
      import("./lib/goals/goal_runner.ts").then(({ afterTurn }) =>
        afterTurn(ctx, run, { fetch: ctx.runs.options(ctx.config).fetch })
      ).catch((err) =>
        log.warn("goal evaluation failed", { session_id: run.sessionId, error: String(err) })
      );
    },
  });
  installReplicaCommands(ctx);
  syncCatalogAcrossReplicas(ctx);
  ctx.tasks = new TaskScheduler({ db, timers: systemTimers, log, runner: createTaskRunner(ctx) });
  ctx.onClose.push(async () => {
    ctx.tasks.stop();
    await ctx.tasks.idle(); // a tick under way finishes its queries before the database closes
  });
  ctx.onProviderConfigChange.push(() => ctx.models.invalidate());
  ctx.onClose.push(() => ctx.models.close());
  ctx.onClose.push(() => ctx.mcp.close());
  ctx.onClose.push(() => ctx.tools.close());
  ctx.onClose.push(() => ctx.runs.close());
  ctx.onClose.push(() => ctx.terminals.shutdown());
  // Runs a previous process left behind are recovered before the first request is answered.
  await ctx.runs.ready;
  const router = createRouter({
    manifest,
    app: ctx,
    renderPage: createPageRenderer({ islands: manifest.islands, log }),
  });
  return {
    ctx,
    fetch: (req, info) => {
      const res = router.fetch(req, info ? { remoteAddr: info.remoteAddr } : undefined);
      return res instanceof Promise ? res.then((r) => ctx.live.track(r)) : ctx.live.track(res);
    },
    async close() {
      // Before anything closes (a route's own close hook, a halted run): open pages hear
      // "going away", not a stream that just stops.
      ctx.live.goingAway();
      for (const fn of [...ctx.onClose].reverse()) await fn();
      db.close();
    },
  };
}

/**
 * Refuse configurations that would expose the console unsafely: a non-loopback bind needs a
 * password, from the environment or stored through the settings (pass `db` to count that one).
 */
export async function checkStartupSafety(config: AppConfig, db?: Db): Promise<void> {
  const stored = db ? await storedPasswordHash(db) !== null : false;
  if (!isLoopbackHost(config.host) && !config.password && !stored) {
    throw new ConfigError(
      `Refusing to listen on ${config.host} without a password. Set HERMES_WEBUI_PASSWORD ` +
        `(e.g. HERMES_WEBUI_PASSWORD='a long secret' deno task start) or bind to 127.0.0.1.`,
    );
  }
}

/** Say at start, in the log, when the agent's commands would run as root (SECURITY.md). */
export async function logSandboxStatus(ctx: AppContext): Promise<void> {
  const status = await ctx.tools.commands.status();
  if (status.warning) ctx.log.warn(status.warning);
  // A refused sandbox.read_paths entry is named at start rather than silently not mounted.
  for (const why of sandboxReadPaths(ctx.config.file).refused) {
    ctx.log.warn(`config.yaml sandbox.read_paths: refused ${why}`);
  }
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`hermes-console: ${err.message}`);
      Deno.exit(1);
    }
    throw err;
  }
  let app: BuiltApp;
  try {
    app = await buildApp(config);
  } catch (err) {
    // A database that cannot be opened (HERMES_DATABASE_URL unreachable, a migration that
    // failed) is said in one line, as a configuration error is.
    console.error(`hermes-console: ${err instanceof Error ? err.message : String(err)}`);
    Deno.exit(1);
  }
  try {
    await checkStartupSafety(config, app.ctx.db); // now also counting a password set in settings
  } catch (err) {
    console.error(`hermes-console: ${(err as Error).message}`);
    Deno.exit(1);
  }
  void logSandboxStatus(app.ctx);
  // Created at start so scripts find it before the first page is served (SECURITY.md).
  consoleToken(app.ctx.security).catch((err) =>
    app.ctx.log.error("Cannot create the console token", { error: String(err) })
  );
  // Scheduled tasks start with the server (tests start them explicitly): a slot missed while
  // it was down runs once now if it is less than one period late (lib/tasks/scheduler.ts).
  // Not awaited: serving does not wait for the catch-up, and start() never rejects (a database
  // failure is logged and the scheduler tries again).
  void app.ctx.tasks.start();
  const server = Deno.serve({
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) =>
      app.ctx.log.info(`Hermes Console listening on http://${hostname}:${port}`),
  }, app.fetch);
  // Event streams never end on their own and server.shutdown() waits for every response: the
  // shutdown ends them first, with a frame that tells pages to reconnect (lib/server/).
  exitOnSignals({ live: app.ctx.live, server, closeApp: () => app.close(), log: app.ctx.log });
}

if (import.meta.main) await main();
