// The dependencies every route and middleware receives, wired once in main.ts.
// Concept modules never reach for globals: they get what they need from here, so two
// apps (e.g. two tests) can run side by side in one process without sharing state.
import type { AppConfig } from "./config.ts";
import type { Db } from "./db.ts";
import type { Clock } from "./ids.ts";
import type { Logger } from "./log.ts";

export interface AppContext {
  config: AppConfig;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Epoch seconds when this server started. */
  startedAt: number;
  /** Called on shutdown, in reverse order of registration (close streams, db, servers). */
  onClose: Array<() => void | Promise<void>>;
}
