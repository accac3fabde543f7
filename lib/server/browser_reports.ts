// What browsers report back to the server, written to the log: Content-Security-Policy
// violations (`POST /api/csp-report`, named as the pages' `report-uri`) and the page's small
// diagnostic events (`POST /api/client-events/log`, the original's routes). Invariants: bodies
// are bounded before they are read (64 KiB for a report, 4 KiB for an event); an event keeps
// only whitelisted fields, each cut to its length, and a URL keeps its path only (no query, no
// fragment: they can carry tokens); each client is rate limited, per app, never process-wide.
import { createRateLimiter, type RateDecision, type RateLimiter } from "../security/rate_limit.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";

export const MAX_CSP_REPORT_BYTES = 64 * 1024;
export const MAX_CLIENT_EVENT_BYTES = 4 * 1024;
/** Reports per client per minute: past it they are dropped (still answered 204). */
export const CSP_REPORTS_PER_MINUTE = 100;
/** Events per client per minute: past it the answer is 429. */
export const CLIENT_EVENTS_PER_MINUTE = 30;

/** The fields an event may carry, with the longest value kept. */
const EVENT_FIELDS: Record<string, number> = {
  event: 64,
  source: 80,
  session_id: 128,
  stream_id: 128,
  visibility_state: 32,
  url_path: 256,
  reason: 160,
};

/** The fields of a CSP report worth logging (legacy `csp-report` and Reporting API bodies). */
const CSP_FIELDS = [
  "document-uri",
  "documentURL",
  "violated-directive",
  "effective-directive",
  "effectiveDirective",
  "blocked-uri",
  "blockedURL",
  "source-file",
  "sourceFile",
  "line-number",
  "lineNumber",
  "disposition",
  "status-code",
];

export type ClientEvent = Record<string, string | number | boolean>;

interface Limiters {
  csp: RateLimiter;
  events: RateLimiter;
}

const limitersByApp = new WeakMap<object, Limiters>();

function limiters(app: { clock: Clock }): Limiters {
  let found = limitersByApp.get(app);
  if (!found) {
    found = {
      csp: createRateLimiter({
        limit: CSP_REPORTS_PER_MINUTE,
        windowSeconds: 60,
        clock: app.clock,
      }),
      events: createRateLimiter({
        limit: CLIENT_EVENTS_PER_MINUTE,
        windowSeconds: 60,
        clock: app.clock,
      }),
    };
    limitersByApp.set(app, found);
  }
  return found;
}

/** Count one event of `kind` from `client`; `ok: false` once the client is over its limit. */
export function hitBrowserReportLimit(
  app: { clock: Clock },
  kind: "csp" | "events",
  client: string,
): Promise<RateDecision> {
  return limiters(app)[kind].hit(client);
}

function bounded(value: unknown, limit: number): string | undefined {
  if (value === null || value === undefined || typeof value === "object") return undefined;
  const text = String(value).trim();
  return text ? text.slice(0, limit) : undefined;
}

/** A URL or path reduced to its path (no origin, query or fragment), cut to the field's length. */
function pathOnly(value: unknown): string | undefined {
  const text = bounded(value, 1024);
  if (!text) return undefined;
  let path: string;
  try {
    path = new URL(text, "http://console.invalid").pathname;
  } catch {
    path = text.split(/[?#]/, 1)[0];
  }
  if (!path.startsWith("/")) path = "/" + path;
  return path.slice(0, EVENT_FIELDS.url_path);
}

const TRUE_WORDS = new Set(["true", "1", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "0", "no", "off"]);

/** The whitelisted, bounded copy of a page's diagnostic event (`event` is always present). */
export function sanitizeClientEvent(body: Record<string, unknown>): ClientEvent {
  const out: ClientEvent = {};
  for (const [field, limit] of Object.entries(EVENT_FIELDS)) {
    const value = field === "url_path" ? pathOnly(body[field]) : bounded(body[field], limit);
    if (value !== undefined) out[field] = value;
  }
  const ready = body.ready_state;
  if (typeof ready === "number" && Number.isInteger(ready) && ready >= 0 && ready <= 3) {
    out.ready_state = ready;
  }
  const online = body.online;
  if (typeof online === "boolean") out.online = online;
  else if (typeof online === "string") {
    const word = online.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) out.online = true;
    else if (FALSE_WORDS.has(word)) out.online = false;
  }
  out.event ??= "unknown";
  return out;
}

/**
 * The loggable part of a CSP report body: the known fields of each report (a legacy
 * `{"csp-report": {...}}` object, a Reporting API array of `{type, body}`), values cut short.
 * Anything else is summarized by its size only.
 */
export function summarizeCspReport(raw: string): Array<Record<string, string>> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return `unparsable report of ${raw.length} bytes`;
  }
  const items = Array.isArray(parsed) ? parsed.slice(0, 20) : [parsed];
  const out: Array<Record<string, string>> = [];
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const obj = item as Record<string, unknown>;
    const inner = (obj["csp-report"] ?? obj.body ?? obj) as Record<string, unknown>;
    if (!inner || typeof inner !== "object") continue;
    const fields: Record<string, string> = {};
    for (const name of CSP_FIELDS) {
      const value = bounded(inner[name], 300);
      if (value !== undefined) fields[name] = value;
    }
    if (Object.keys(fields).length) out.push(fields);
  }
  return out.length ? out : `report without known fields (${raw.length} bytes)`;
}

/** Write one CSP report to the log. */
export function logCspReport(log: Logger, client: string, raw: string): void {
  log.warn("CSP violation reported by a browser", { client, report: summarizeCspReport(raw) });
}

/** Write one page event to the log. */
export function logClientEvent(log: Logger, client: string, event: ClientEvent): void {
  log.info("Client event", { client, ...event });
}
