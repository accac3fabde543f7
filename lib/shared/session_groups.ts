// Browser-safe: imports nothing from Deno or the database.
// The sidebar's grouping of sessions by recency: Pinned, Today, Yesterday, This week, Older.
// Invariants: pure (the caller passes `now` and the UTC offset); every row lands in exactly
// one group; pinned rows go to Pinned whatever their age; order within a group is the
// caller's order (the API lists newest `updated_at` first); empty groups are omitted.

export type SessionGroupKey = "pinned" | "today" | "yesterday" | "week" | "older";

export interface SessionGroup<T> {
  key: SessionGroupKey;
  label: string;
  sessions: T[];
}

/** The fields grouping needs; API compact rows have them. */
export interface GroupableSession {
  pinned: boolean;
  updated_at: number;
}

const LABELS: Record<SessionGroupKey, string> = {
  pinned: "Pinned",
  today: "Today",
  yesterday: "Yesterday",
  week: "This week",
  older: "Older",
};
/** The header text of a group ("Pinned", "Today", …). */
export function sessionGroupLabel(key: SessionGroupKey): string {
  return LABELS[key];
}

const ORDER: SessionGroupKey[] = ["pinned", "today", "yesterday", "week", "older"];
const DAY = 86_400;

/** Minutes east of UTC of the host's local time at `epochSeconds` (`+60` for CET). */
export function localUtcOffsetMinutes(epochSeconds: number): number {
  return -new Date(epochSeconds * 1000).getTimezoneOffset();
}

/** Epoch seconds of the local midnight starting the day that contains `t`. */
export function startOfLocalDay(t: number, utcOffsetMinutes: number): number {
  const shift = utcOffsetMinutes * 60;
  return Math.floor((t + shift) / DAY) * DAY - shift;
}

/**
 * Which group a session belongs to at `now` (epoch seconds). Days are calendar days in the
 * zone `utcOffsetMinutes` east of UTC; "This week" is the five days before yesterday, so
 * Today + Yesterday + This week cover the last seven calendar days. Times in the future
 * (clock skew between machines) count as today.
 */
export function sessionGroupOf(
  session: GroupableSession,
  now: number,
  utcOffsetMinutes: number,
): SessionGroupKey {
  if (session.pinned) return "pinned";
  const today = startOfLocalDay(now, utcOffsetMinutes);
  const t = session.updated_at;
  if (t >= today) return "today";
  if (t >= today - DAY) return "yesterday";
  if (t >= today - 6 * DAY) return "week";
  return "older";
}

/** Group `sessions` for the sidebar (see sessionGroupOf), in display order. */
export function groupSessionsByDay<T extends GroupableSession>(
  sessions: readonly T[],
  now: number,
  utcOffsetMinutes: number = localUtcOffsetMinutes(now),
): SessionGroup<T>[] {
  const buckets = new Map<SessionGroupKey, T[]>(ORDER.map((k) => [k, []]));
  for (const s of sessions) buckets.get(sessionGroupOf(s, now, utcOffsetMinutes))!.push(s);
  return ORDER.filter((k) => buckets.get(k)!.length > 0)
    .map((key) => ({ key, label: LABELS[key], sessions: buckets.get(key)! }));
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The short time a sidebar row shows: `14:05` today, `Yesterday`, a weekday within the last
 * week, `Mar 3` this year, `Mar 3, 2024` before. Same calendar rules as the groups.
 */
export function formatSessionTime(t: number, now: number, utcOffsetMinutes: number): string {
  const local = new Date((t + utcOffsetMinutes * 60) * 1000); // read with getUTC* only
  const today = startOfLocalDay(now, utcOffsetMinutes);
  if (t >= today) {
    const hh = String(local.getUTCHours()).padStart(2, "0");
    const mm = String(local.getUTCMinutes()).padStart(2, "0");
    return `${hh}:${mm}`;
  }
  if (t >= today - DAY) return "Yesterday";
  if (t >= today - 6 * DAY) return WEEKDAYS[local.getUTCDay()];
  const nowYear = new Date((now + utcOffsetMinutes * 60) * 1000).getUTCFullYear();
  const day = `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()}`;
  return local.getUTCFullYear() === nowYear ? day : `${day}, ${local.getUTCFullYear()}`;
}
