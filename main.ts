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
import { applySettingsToConfig, reloadAppConfig } from "./lib/settings/settings.ts";
import { createSecurity, storedPasswordHash } from "./lib/security/auth.ts";
import { McpManager } from "./lib/mcp/manager.ts";
import { createToolsRuntime, type ToolsRuntimeOptions } from "./lib/tools/runtime.ts";
import { RunManager } from "./lib/engine/run_manager.ts";
import { createModelCatalog } from "./lib/models/model_catalog.ts";

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

/** Wire every subsystem for `config` and return the app's fetch handler. */
export function buildApp(config: AppConfig, opts: BuildOptions = {}): BuiltApp {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger();
  if (config.password) log.addSecret(config.password);
  const db = openDatabase(config.stateDir);
  applySettingsToConfig(db, config, log);
  const ctx: AppContext = {
    config,
    db,
    clock,
    log,
    startedAt: clock(),
    onClose: [],
    security: createSecurity(config, db, clock),
    mcp: new McpManager({ config, log, clock }),
    tools: createToolsRuntime(config, opts.tools),
    reloadConfig: () => reloadAppConfig(ctx),
    onProviderConfigChange: [],
    runs: new RunManager({ db, clock, log }),
    models: createModelCatalog({ getConfig: () => ctx.config, stateDir: config.stateDir, log }),
  };
  ctx.onProviderConfigChange.push(() => ctx.models.invalidate());
  ctx.onClose.push(() => ctx.models.close());
  ctx.onClose.push(() => ctx.mcp.close());
  ctx.onClose.push(() => ctx.tools.close());
  ctx.onClose.push(() => ctx.runs.close());
  const router = createRouter({
    manifest,
    app: ctx,
    renderPage: createPageRenderer({ islands: manifest.islands, log }),
  });
  return {
    ctx,
    fetch: (req, info) => router.fetch(req, info ? { remoteAddr: info.remoteAddr } : undefined),
    async close() {
      for (const fn of [...ctx.onClose].reverse()) await fn();
      db.close();
    },
  };
}

/**
 * Refuse configurations that would expose the console unsafely: a non-loopback bind needs a
 * password, from the environment or stored through the settings (pass `db` to count that one).
 */
export function checkStartupSafety(config: AppConfig, db?: Db): void {
  const stored = db ? storedPasswordHash(db) !== null : false;
  if (!isLoopbackHost(config.host) && !config.password && !stored) {
    throw new ConfigError(
      `Refusing to listen on ${config.host} without a password. Set HERMES_WEBUI_PASSWORD ` +
        `(e.g. HERMES_WEBUI_PASSWORD='a long secret' deno task start) or bind to 127.0.0.1.`,
    );
  }
}

function main(): void {
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
  const app = buildApp(config);
  try {
    checkStartupSafety(config, app.ctx.db); // now also counting a password set in settings
  } catch (err) {
    console.error(`hermes-console: ${(err as Error).message}`);
    Deno.exit(1);
  }
  const server = Deno.serve({
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) =>
      app.ctx.log.info(`Hermes Console listening on http://${hostname}:${port}`),
  }, app.fetch);
  const shutdown = async () => {
    await server.shutdown();
    await app.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", shutdown);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", shutdown);
}

if (import.meta.main) main();
