// When a scheduled task runs: a schedule written as cron syntax ("0 9 * * 1-5"), an interval
// ("every 15 minutes", "every 2h") or a one-off time ("2026-12-24T09:00" in the job's zone, or
// "in 30m"), with its slots computed in the user's time zone. Cron parsing and DST are croner's;
// what is ours is the vocabulary and slot arithmetic. Invariant: slots are epoch ms, strictly
// increasing, and a pure function of (schedule, zone, after).
import { Cron } from "croner";
import { ValidationError } from "../errors.ts";

export type ScheduleKind = "cron" | "interval" | "once";

/** A parsed schedule: what the user wrote, what it means, and how to show it. */
export interface Schedule {
  kind: ScheduleKind;
  /** The cron expression, the interval in ms (as text) or the one-off time (epoch ms as text). */
  expr: string;
  /** For people: "every 15 minutes", "0 9 * * 1-5", "once at 2026-12-24 09:00". */
  display: string;
  /** IANA zone the schedule is read in. */
  timezone: string;
}

const UNITS: Record<string, number> = {
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
};

/** The shortest interval a task may repeat at: a minute (faster is a loop, not a schedule). */
export const MIN_INTERVAL_MS = 60_000;

function unitMs(word: string): number | undefined {
  const w = word.toLowerCase().replace(/s$/, "");
  return UNITS[w] ?? UNITS[word.toLowerCase()];
}

function checkZone(timezone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return timezone;
  } catch {
    throw new ValidationError(`Unknown time zone "${timezone}"`);
  }
}

/** Epoch ms of a wall-clock time (`YYYY-MM-DDTHH:MM[:SS]`) in `timezone`. */
export function wallClockToEpoch(text: string, timezone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) throw new ValidationError(`Cannot read the time "${text}"`);
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  // Guess as UTC, then correct by the zone's offset at that instant (twice, for DST edges).
  let t = Date.UTC(y, mo - 1, d, h, mi, s);
  for (let i = 0; i < 2; i++) t = Date.UTC(y, mo - 1, d, h, mi, s) - zoneOffsetMs(t, timezone);
  return t;
}

/** The zone's offset from UTC at instant `t`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(t: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return wall - Math.floor(t / 1000) * 1000;
}

/**
 * Read what a person wrote. `now` anchors relative one-offs ("in 30m"). Throws a
 * ValidationError naming the text when it is none of the three forms.
 */
export function parseSchedule(text: string, timezone: string, now: number): Schedule {
  const raw = String(text ?? "").trim();
  const tz = checkZone(timezone || "UTC");
  if (!raw) throw new ValidationError("A schedule is required");
  const every = /^every\s+(\d+)?\s*([a-z]+)$/i.exec(raw);
  if (every) {
    const n = every[1] ? Number(every[1]) : 1;
    const unit = unitMs(every[2]);
    if (!unit || !(n > 0)) throw new ValidationError(`Cannot read the interval "${raw}"`);
    const ms = n * unit;
    if (ms < MIN_INTERVAL_MS) {
      throw new ValidationError(`"${raw}" is too frequent: a task repeats at most once a minute`);
    }
    return { kind: "interval", expr: String(ms), display: describeInterval(ms), timezone: tz };
  }
  const rel = /^in\s+(\d+)\s*([a-z]+)$/i.exec(raw);
  if (rel) {
    const unit = unitMs(rel[2]);
    if (!unit) throw new ValidationError(`Cannot read the time "${raw}"`);
    return once(now + Number(rel[1]) * unit, tz);
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(raw)) {
    const at = /(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? Date.parse(raw) : wallClockToEpoch(raw, tz);
    if (!Number.isFinite(at)) throw new ValidationError(`Cannot read the time "${raw}"`);
    return once(at, tz);
  }
  try {
    new Cron(raw, { timezone: tz, paused: true });
  } catch (err) {
    throw new ValidationError(
      `Cannot read the schedule "${raw}": use cron syntax ("0 9 * * 1-5"), "every 15 minutes" ` +
        `or a time ("2026-12-24 09:00")`,
      "schedule",
      { cause: err },
    );
  }
  return { kind: "cron", expr: raw, display: raw, timezone: tz };
}

function once(at: number, timezone: string): Schedule {
  const shown = new Intl.DateTimeFormat("sv-SE", {
    timeZone: timezone,
    dateStyle: "short",
    timeStyle: "short",
  }).format(new Date(at));
  return { kind: "once", expr: String(at), display: `once at ${shown}`, timezone };
}

function describeInterval(ms: number): string {
  for (const [name, unit] of [["week", 604_800_000], ["day", 86_400_000], ["hour", 3_600_000]]) {
    const u = unit as number;
    if (ms % u === 0) return ms === u ? `every ${name}` : `every ${ms / u} ${name}s`;
  }
  const minutes = ms / 60_000;
  return minutes === 1 ? "every minute" : `every ${minutes} minutes`;
}

/**
 * The first slot strictly after `after`, or null when there is none (a one-off that passed).
 * `anchor` is where an interval counts from (the job's creation), so slots do not drift.
 */
export function nextSlot(s: Schedule, after: number, anchor = 0): number | null {
  if (s.kind === "once") {
    const at = Number(s.expr);
    return at > after ? at : null;
  }
  if (s.kind === "interval") {
    const ms = Number(s.expr);
    const k = Math.floor((after - anchor) / ms) + 1;
    return anchor + Math.max(1, k) * ms;
  }
  const next = new Cron(s.expr, { timezone: s.timezone, paused: true }).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

/** The latest slot at or before `now` and after `since`, or null (nothing was due). */
export function latestDueSlot(s: Schedule, since: number, now: number, anchor = 0): number | null {
  let slot = nextSlot(s, since, anchor);
  if (slot === null || slot > now) return null;
  // Walk forward; bounded because a long outage of a frequent job must not spin: jump for
  // intervals, and for cron step through at most 10,000 slots (then take the newest seen).
  if (s.kind === "interval") {
    const ms = Number(s.expr);
    return anchor + Math.floor((now - anchor) / ms) * ms;
  }
  for (let i = 0; i < 10_000; i++) {
    const after = nextSlot(s, slot, anchor);
    if (after === null || after > now) return slot;
    slot = after;
  }
  return slot;
}

/** How long one period is around `slot` (the gap to the next slot); Infinity for one-offs. */
export function periodAt(s: Schedule, slot: number, anchor = 0): number {
  const next = nextSlot(s, slot, anchor);
  return next === null ? Infinity : next - slot;
}
