// Browser-safe: imports nothing from Deno or the database.
// Whether this page can reach its server, and the one quiet sign that says when it cannot. The
// server may say it is leaving (a stream's going-away frame: believed at once), or a stream or feed
// breaks (believed only once GET /health fails too). While away, /health is asked again on a short
// back-off; when it answers, the sign goes, `hermes:connection` says so and whoever waits resumes
// (a followed run: lib/browser/stream_client.ts). Invariants: one probe loop at a time; the sign is
// a polite live region present from the start, so screen readers hear its text change.
import { emitHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

export type Reach = "online" | "offline";

/** What a followed stream met: the server said it is leaving, the stream broke, every probe failed. */
export type ServerTrouble = "away" | "broken" | "lost";

/** Waits between probes while the server is away: quick at first (a restart), then every 5 s. */
export const RECHECK_MS: readonly number[] = [1000, 2000, 3000, 5000];

export interface ConnectionDeps {
  /** True when the server answered. Never throws. */
  probe(): Promise<boolean>;
  sleep(ms: number): Promise<void>;
  onChange(reach: Reach): void;
}

export interface ServerConnection {
  readonly reach: Reach;
  /** The server said it is shutting down: offline now; watch for its return. */
  goingAway(): void;
  /** A stream or feed broke without a word: offline only if the server does not answer. */
  suspect(): void;
  /** Resolves when the server is reachable (at once when it is), or when `signal` aborts. */
  whenOnline(signal?: AbortSignal): Promise<void>;
}

export function createConnection(deps: ConnectionDeps): ServerConnection {
  let reach: Reach = "online";
  let watching: Promise<void> | null = null;
  const waiters = new Set<() => void>();
  const set = (next: Reach) => {
    if (next === reach) return;
    reach = next;
    deps.onChange(next);
    if (next === "online") { for (const wake of [...waiters]) wake(); }
  };
  const watch = (firstWaitMs: number) => {
    watching ??= (async () => {
      // A server that just said goodbye may still be draining: ask it after the first pause.
      if (firstWaitMs) await deps.sleep(firstWaitMs);
      for (let i = 0; !await deps.probe(); i++) {
        set("offline");
        await deps.sleep(RECHECK_MS[Math.min(i, RECHECK_MS.length - 1)]);
      }
      set("online");
    })().finally(() => watching = null);
  };
  return {
    get reach() {
      return reach;
    },
    goingAway() {
      set("offline");
      watch(RECHECK_MS[0]);
    },
    suspect() {
      watch(0);
    },
    whenOnline(signal) {
      if (reach === "online" || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          signal?.removeEventListener("abort", wake);
          resolve();
        };
        waiters.add(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    },
  };
}

let page: ServerConnection | undefined;

/** Whether the page reaches its server now, without mounting anything ("online" until known). */
export function pageReach(): Reach {
  return page?.reach ?? "online";
}

/** The page's connection, its sign mounted under the top bar on first use. */
export function pageConnection(): ServerConnection {
  if (page) return page;
  const sign = mountSign();
  page = createConnection({
    // Never throws (ConnectionDeps): a body cut off by a server going down rejects its cancel.
    probe: () =>
      fetch("/health", { cache: "no-store", credentials: "same-origin" }).then(
        async (res) => (await res.body?.cancel().catch(() => {}), res.ok),
      ).catch(() => false),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    onChange(reach) {
      if (sign) {
        sign.dataset.reach = reach;
        sign.textContent = reach === "offline" ? t("connection.lost") : "";
      }
      emitHermesEvent("hermes:connection", { online: reach === "online" });
      if (reach !== "online") return;
      emitHermesEvent("hermes:announce", { text: t("connection.back") });
      // The sidebar re-reads its list: what changed meanwhile (a restart's recovery) went unheard.
      emitHermesEvent("hermes:sessions-changed", { reason: "reconnected" });
    },
  });
  const c = page;
  globalThis.addEventListener?.("offline", () => c.suspect());
  globalThis.addEventListener?.("online", () => c.suspect());
  return c;
}

/**
 * What lib/browser/stream_client.ts asks when its stream meets `what`: true once the server
 * answers again after it left, or while the page knows it to be away; false when the follow
 * should keep to its own probe schedule (a mere break: the sign shows if probes fail).
 */
export async function serverTrouble(what: ServerTrouble, signal: AbortSignal): Promise<boolean> {
  const c = pageConnection();
  if (what === "broken") c.suspect();
  if (what === "away") c.goingAway();
  if (what === "broken" || c.reach === "online") return false;
  await c.whenOnline(signal);
  return !signal.aborted;
}

/**
 * Let an always-open feed (the sidebar's EventSource) tell the page when its server may be gone:
 * any close, a going-away included, is an `error` there, and a probe tells the two apart.
 */
export function watchFeed(feed: EventSource): void {
  const c = pageConnection();
  feed.addEventListener("error", () => c.suspect());
}

function mountSign(): HTMLElement | null {
  const topbar = globalThis.document?.querySelector(".conversation > .topbar");
  if (!topbar) return null;
  const slot = document.createElement("div");
  slot.className = "connection-slot";
  const sign = document.createElement("p");
  sign.className = "connection-sign";
  sign.setAttribute("role", "status");
  sign.setAttribute("aria-live", "polite");
  sign.dataset.reach = "online";
  slot.append(sign);
  topbar.after(slot);
  return sign;
}
