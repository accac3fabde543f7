// The time window of GET /api/insights (seed ARCHITECTURE.md §4.12), as a pure function of the
// query, the server clock and a timezone-aware calendar. Invariants: calendar dates are local
// midnight to local midnight computed from wall-clock parts (never `+86400`, so DST days are
// 23 or 25 hours long); the window never reaches past `now`; a bound that cannot be served
// faithfully fails closed to the trailing window, never to an interval nobody asked for.

/** Wall-clock parts of an instant in one timezone. `weekday` is 0 = Monday … 6 = Sunday. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/**
 * A timezone's calendar: the two conversions every window rule is built from. Injected so
 * tests can pin any zone (America/New_York's DST days) regardless of the machine's TZ.
 */
export interface LocalCalendar {
  timeZone: string;
  /** Local wall-clock parts of `t` (epoch seconds). */
  parts(t: number): LocalParts;
  /**
   * Epoch seconds of the first instant of the local calendar day (year, month, day). Month and
   * day may overflow (day 0, day 32) and are normalized like `Date`. When local midnight does
   * not exist (a DST gap at 00:00) the day starts at the end of the gap.
   */
  midnight(year: number, month: number, day: number): number;
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

/** The calendar of `timeZone` (an IANA name), or of the server's own zone when omitted. */
export function localCalendar(timeZone?: string): LocalCalendar {
  const zone = timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  const fmt = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    era: "short",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  });
  const parts = (t: number): LocalParts => {
    const out: Record<string, string> = {};
    for (const p of fmt.formatToParts(new Date(Math.floor(t) * 1000))) out[p.type] = p.value;
    const year = Number(out.year);
    return {
      year: out.era === "BC" ? 1 - year : year,
      month: Number(out.month),
      day: Number(out.day),
      hour: Number(out.hour) % 24,
      minute: Number(out.minute),
      second: Number(out.second),
      weekday: WEEKDAYS[out.weekday] ?? 0,
    };
  };
  /** Offset (seconds east of UTC) in force at instant `t`. */
  const offsetAt = (t: number): number => {
    const p = parts(t);
    return wallSeconds(p.year, p.month, p.day, p.hour, p.minute, p.second) - Math.floor(t);
  };
  const midnight = (year: number, month: number, day: number): number => {
    const wall = wallSeconds(year, month, day, 0, 0, 0);
    const first = wall - offsetAt(wall);
    const second = wall - offsetAt(first);
    const candidates = [first, second].filter((t) => localWall(t) === wall).sort((a, b) => a - b);
    // Both guesses miss only inside a DST gap: the day begins where the gap ends.
    return candidates[0] ?? Math.max(first, second);
  };
  const localWall = (t: number): number => {
    const p = parts(t);
    return wallSeconds(p.year, p.month, p.day, p.hour, p.minute, p.second);
  };
  return { timeZone: zone, parts, midnight };
}

const calendars = new Map<string, LocalCalendar>();

/**
 * The server's calendar: the zone named by `tz` (the `TZ` environment variable, which the OS
 * and Deno's own clock honour too) when it is a valid IANA name, else the system zone.
 * Cached per zone: building the formatter is the slow part.
 */
export function serverCalendar(tz?: string): LocalCalendar {
  const key = tz?.replace(/^:/, "") ?? "";
  let cal = calendars.get(key);
  if (!cal) {
    try {
      cal = localCalendar(key || undefined);
    } catch {
      cal = localCalendar();
    }
    calendars.set(key, cal);
  }
  return cal;
}

/** Seconds of a wall-clock reading counted as if it were UTC (month/day overflow normalized). */
function wallSeconds(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime() / 1000;
}

/** The normalized calendar date (y, m, d) after overflow, e.g. (2026, 3, 0) → 2026-02-28. */
export function normalizeDate(y: number, m: number, d: number): [number, number, number] {
  const date = new Date(wallSeconds(y, m, d, 0, 0, 0) * 1000);
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

/** `YYYY-MM-DD` of a calendar date. */
export function isoDate(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${
    String(d).padStart(2, "0")
  }`;
}

/** The query parameters that select a window; `null` means the parameter was not supplied. */
export interface WindowQuery {
  days: string | null;
  start: string | null;
  end: string | null;
}

export interface InsightsWindow {
  mode: "trailing" | "custom";
  /** Inclusive start, epoch seconds. */
  start: number;
  /** Exclusive end, epoch seconds; never after `now`. */
  end: number;
  /** Whole days the window spans (a DST day still counts as one; a partial day as one). */
  period_days: number;
  /** The trailing length in days that was requested (or defaulted), for the UI's presets. */
  days: number;
  /** Why a supplied start/end was not served (the window fell back to trailing). */
  fallback_reason?: string;
}

/** The panel's default preset. */
export const DEFAULT_DAYS = 30;
/** Five calendar years are at most 1,827 days; the daily series never grows past that. */
export const MAX_DAYS = 1827;
/** The largest epoch second accepted as a bound: 9999-12-31T23:59:59Z. */
export const MAX_EPOCH_SECONDS = 253_402_300_799;
const DAY = 86_400;

type Bound =
  | { kind: "date"; y: number; m: number; d: number; text: string }
  | { kind: "epoch"; t: number; text: string };

/** A supplied bound that cannot be served, with the reason in words. */
class BoundRejected extends Error {}

function parseDays(raw: string | null): number {
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return DEFAULT_DAYS;
  const n = Number(raw);
  if (n < 1) return DEFAULT_DAYS;
  return Math.min(n, MAX_DAYS);
}

function parseBound(name: string, raw: string, cal: LocalCalendar): Bound {
  const text = raw.trim();
  const date = text.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const [ny, nm, nd] = normalizeDate(y, m, d);
    if (m < 1 || m > 12 || d < 1 || ny !== y || nm !== m || nd !== d) {
      throw new BoundRejected(`${name} "${text}" is not a calendar date`);
    }
    if (y < 1970 || cal.midnight(y, m, d) < 0) {
      throw new BoundRejected(`${name} "${text}" is before 1970`);
    }
    return { kind: "date", y, m, d, text };
  }
  if (/^-?\d+(\.\d+)?$/.test(text)) {
    const t = Number(text);
    if (!Number.isFinite(t)) throw new BoundRejected(`${name} "${text}" is not a number`);
    if (t < 0) throw new BoundRejected(`${name} "${text}" is before 1970`);
    if (t > MAX_EPOCH_SECONDS) {
      throw new BoundRejected(`${name} "${text}" is outside the supported range`);
    }
    return { kind: "epoch", t, text };
  }
  throw new BoundRejected(
    `${name} "${text}" is neither epoch seconds nor a YYYY-MM-DD date`,
  );
}

/** The first instant a bound selects: a date's local midnight, an epoch's own second. */
function boundStart(b: Bound, cal: LocalCalendar): number {
  return b.kind === "date" ? cal.midnight(b.y, b.m, b.d) : b.t;
}

/** The exclusive stop a bound selects as an end: the next local midnight, or the epoch itself. */
function boundStop(b: Bound, cal: LocalCalendar): number {
  return b.kind === "date" ? cal.midnight(b.y, b.m, b.d + 1) : b.t;
}

/** Whole days spanned, tolerating the hour a DST day gains or loses; a partial day counts. */
function periodDays(start: number, end: number): number {
  if (end <= start) return 0;
  return Math.max(1, Math.ceil((end - start - 3600) / DAY));
}

/** Start of the earliest local day that keeps [start, end) within five calendar years. */
function fiveYearFloor(end: number, cal: LocalCalendar): number {
  const p = cal.parts(end);
  return cal.midnight(p.year - 5, p.month, p.day);
}

function trailing(days: number, now: number, cal: LocalCalendar, reason?: string): InsightsWindow {
  const start = Math.max(0, now - days * DAY, fiveYearFloor(now, cal));
  return {
    mode: "trailing",
    start,
    end: now,
    period_days: periodDays(start, now),
    days,
    ...(reason ? { fallback_reason: reason } : {}),
  };
}

/**
 * Resolve the window of GET /api/insights, rule by rule (§4.12):
 * `days=N` is a trailing window ending now; `start`/`end` (epoch seconds or local
 * `YYYY-MM-DD`) make an absolute one — start-only runs to now, end-only reaches back 30 days
 * by the bound's own arithmetic (calendar days for a date, 30 × 86,400 s for an epoch),
 * reversed bounds are swapped, an end past now (or today's date) is clamped to now, and the
 * window is clamped to five calendar years. An unparseable, out-of-range, pre-1970 or
 * strictly-future start falls back to the trailing window; `start == now` is an empty custom
 * window, not a fallback.
 */
export function resolveInsightsWindow(
  query: WindowQuery,
  now: number,
  cal: LocalCalendar,
): InsightsWindow {
  const days = parseDays(query.days);
  if (query.start === null && query.end === null) return trailing(days, now, cal);
  let startBound: Bound | null;
  let endBound: Bound | null;
  try {
    startBound = query.start === null ? null : parseBound("start", query.start, cal);
    endBound = query.end === null ? null : parseBound("end", query.end, cal);
  } catch (err) {
    if (err instanceof BoundRejected) return trailing(days, now, cal, err.message);
    throw err;
  }

  let start: number;
  let end: number;
  if (startBound && endBound) {
    if (boundStart(startBound, cal) > boundStart(endBound, cal)) {
      [startBound, endBound] = [endBound, startBound];
    }
    start = boundStart(startBound, cal);
    end = boundStop(endBound, cal);
  } else if (startBound) {
    start = boundStart(startBound, cal);
    end = now;
  } else {
    // End only: a future end is clamped first, so the derived start is never in the future.
    const b = endBound!;
    if (b.kind === "date") {
      const today = cal.parts(now);
      const future = cal.midnight(b.y, b.m, b.d) > now;
      const [y, m, d] = future ? [today.year, today.month, today.day] : [b.y, b.m, b.d];
      start = cal.midnight(y, m, d + 1 - 30);
      end = cal.midnight(y, m, d + 1);
    } else {
      end = Math.min(b.t, now);
      start = end - 30 * DAY;
    }
  }

  if (start > now) {
    const which = startBound ?? endBound!;
    return trailing(days, now, cal, `start "${which.text}" is in the future`);
  }
  end = Math.min(end, now);
  start = Math.max(0, start, fiveYearFloor(end, cal));
  if (start > end) start = end;
  return { mode: "custom", start, end, period_days: periodDays(start, end), days };
}

/** One local calendar day of a window: the slice [start, stop) of the window inside it. */
export interface WindowDay {
  date: string;
  start: number;
  stop: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  /** Local midnight that begins the day (may precede `start` for the window's first day). */
  midnight: number;
  /** Seconds from this midnight to the next: 82,800 / 86,400 / 90,000 around DST. */
  length: number;
}

/**
 * The local calendar days a window touches, in order, each clipped to the window. An empty
 * window has no days. The daily series and the totals are both built from these slices.
 */
export function windowDays(window: Pick<InsightsWindow, "start" | "end">, cal: LocalCalendar) {
  const days: WindowDay[] = [];
  if (window.end <= window.start) return days;
  const first = cal.parts(window.start);
  let [y, m, d] = [first.year, first.month, first.day];
  let midnight = cal.midnight(y, m, d);
  while (midnight < window.end && days.length <= MAX_DAYS + 1) {
    const next = cal.midnight(y, m, d + 1);
    const weekday = (new Date(wallSeconds(y, m, d, 0, 0, 0) * 1000).getUTCDay() + 6) % 7;
    days.push({
      date: isoDate(y, m, d),
      start: Math.max(midnight, window.start),
      stop: Math.min(next, window.end),
      weekday,
      midnight,
      length: next - midnight,
    });
    [y, m, d] = normalizeDate(y, m, d + 1);
    midnight = next;
  }
  return days;
}
