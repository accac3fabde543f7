// Stopping the server on SIGTERM/SIGINT (`docker stop`, Ctrl+C) in bounded time, whatever is open.
// Order matters: pages are told first (each stream's going-away frame, before a run's halt could
// close it without one), then in-flight answers get a short drain, then the app closes (runs are
// halted with their partial answers saved and left for the next start's recovery to mark
// interrupted; the database closes last). Invariant: the process is gone `exitMs` after the signal
// even if a subsystem's close never returns.
import type { Logger } from "../log.ts";
import type { LiveResponses } from "./live_responses.ts";

export interface ShutdownTimings {
  /** How long in-flight answers may take to finish once streams were told. */
  drainMs: number;
  /** Signal to exit, at the latest (issue 29: within 5 s, with margin for the runtime's exit). */
  exitMs: number;
}

export const SHUTDOWN_TIMINGS: ShutdownTimings = { drainMs: 2_000, exitMs: 4_000 };

export interface ShutdownParts {
  live: LiveResponses;
  server: { shutdown(): Promise<void> };
  /** The app's own close (its onClose chain, then the database). */
  closeApp(): Promise<void>;
  log: Logger;
}

/** Resolves true when `p` settles within `ms`, false when it is still pending then. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Tell pages, drain, close the app. Resolves once done; the caller exits. */
export async function shutDownGracefully(
  parts: ShutdownParts,
  timings: ShutdownTimings = SHUTDOWN_TIMINGS,
): Promise<void> {
  const open = parts.live.open;
  parts.live.goingAway();
  parts.log.info(`Shutting down: ${open} open stream(s) told to reconnect later`);
  if (!await settlesWithin(parts.server.shutdown(), timings.drainMs)) {
    parts.log.warn(`Responses still open after ${timings.drainMs} ms; closing without them`);
  }
  await parts.closeApp();
}

/**
 * Install the SIGINT/SIGTERM handlers: the first signal shuts down gracefully and exits (0, or 1
 * when the shutdown failed), a second one exits at once, and a watchdog exits at `exitMs`.
 */
export function exitOnSignals(
  parts: ShutdownParts,
  timings: ShutdownTimings = SHUTDOWN_TIMINGS,
): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) {
      parts.log.warn("Second signal: exiting now");
      Deno.exit(1);
    }
    stopping = true;
    setTimeout(() => {
      parts.log.warn(`Shutdown still running after ${timings.exitMs} ms: exiting now`);
      Deno.exit(1);
    }, timings.exitMs);
    shutDownGracefully(parts, timings).then(
      () => Deno.exit(0),
      (err) => {
        parts.log.error("Shutdown failed", { error: String(err) });
        Deno.exit(1);
      },
    );
  };
  Deno.addSignalListener("SIGINT", onSignal);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", onSignal);
}
