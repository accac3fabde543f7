// Production entry: load config, open the database, wire lib/, serve.
// `buildApp()` is exported so tests can drive the same app through its fetch handler.
import { manifest } from "./routes.gen.ts";
import { type AppConfig, ConfigError, isLoopbackHost, loadConfig } from "./lib/config.ts";
import { openDatabase } from "./lib/db.ts";
import { createRouter } from "./lib/file_router.ts";
import { renderPage } from "./lib/render_page.ts";
import { type Clock, systemClock } from "./lib/ids.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import type { AppContext } from "./lib/app_context.ts";

export interface BuildOptions {
  clock?: Clock;
  log?: Logger;
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
  const ctx: AppContext = { config, db, clock, log, startedAt: clock(), onClose: [] };
  const router = createRouter({ manifest, app: ctx, renderPage });
  return {
    ctx,
    fetch: (req, info) => router.fetch(req, info ? { remoteAddr: info.remoteAddr } : undefined),
    async close() {
      for (const fn of [...ctx.onClose].reverse()) await fn();
      db.close();
    },
  };
}

/** Refuse configurations that would expose the console unsafely. */
export function checkStartupSafety(config: AppConfig): void {
  if (!isLoopbackHost(config.host) && !config.password) {
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
    checkStartupSafety(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`hermes-console: ${err.message}`);
      Deno.exit(1);
    }
    throw err;
  }
  const app = buildApp(config);
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
