// The insights window rules of seed §4.12, one table row per rule, pinned to America/New_York
// (spring forward 2026-03-08, fall back 2026-11-01) so the DST cases hold on any machine.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import {
  type InsightsWindow,
  localCalendar,
  resolveInsightsWindow,
  serverCalendar,
  windowDays,
} from "../lib/insights/insights_window.ts";

const NY = localCalendar("America/New_York");
/** Epoch seconds of an ISO timestamp with an explicit offset (independent of the code under test). */
const at = (iso: string) => Date.parse(iso) / 1000;
const NOW = at("2026-03-10T15:30:00-04:00");
const DAY = 86_400;

interface Row {
  rule: string;
  q: { days?: string; start?: string; end?: string };
  now?: number;
  tz?: string;
  want: Partial<InsightsWindow> & { reason?: RegExp };
}

const trailing30 = { mode: "trailing" as const, start: NOW - 30 * DAY, end: NOW, days: 30 };

const ROWS: Row[] = [
  { rule: "no bounds: trailing 30 days", q: {}, want: { ...trailing30, period_days: 30 } },
  {
    rule: "days=N: trailing N days ending now",
    q: { days: "7" },
    want: { mode: "trailing", start: NOW - 7 * DAY, end: NOW, period_days: 7, days: 7 },
  },
  { rule: "days not a number: the default 30", q: { days: "abc" }, want: trailing30 },
  { rule: "days=0: the default 30", q: { days: "0" }, want: trailing30 },
  {
    rule: "days beyond five years: clamped to five calendar years",
    q: { days: "100000" },
    want: { mode: "trailing", start: at("2021-03-10T00:00:00-05:00"), end: NOW },
  },
  {
    rule: "YYYY-MM-DD bounds: local midnight to the next local midnight, across spring forward",
    q: { start: "2026-03-01", end: "2026-03-09" },
    want: {
      mode: "custom",
      start: at("2026-03-01T00:00:00-05:00"),
      end: at("2026-03-10T00:00:00-04:00"),
      period_days: 9,
    },
  },
  {
    rule: "the spring-forward day is 23 hours long",
    q: { start: "2026-03-08", end: "2026-03-08" },
    want: {
      mode: "custom",
      start: at("2026-03-08T00:00:00-05:00"),
      end: at("2026-03-09T00:00:00-04:00"),
      period_days: 1,
    },
  },
  {
    rule: "the fall-back day is 25 hours long",
    q: { start: "2026-11-01", end: "2026-11-01" },
    now: at("2026-11-05T12:00:00-05:00"),
    want: {
      mode: "custom",
      start: at("2026-11-01T00:00:00-04:00"),
      end: at("2026-11-02T00:00:00-05:00"),
      period_days: 1,
    },
  },
  {
    rule: "reversed dates are swapped (both whole days kept)",
    q: { start: "2026-03-09", end: "2026-03-01" },
    want: {
      mode: "custom",
      start: at("2026-03-01T00:00:00-05:00"),
      end: at("2026-03-10T00:00:00-04:00"),
    },
  },
  {
    rule: "reversed epochs are swapped",
    q: { start: String(NOW - 100), end: String(NOW - 5000) },
    want: { mode: "custom", start: NOW - 5000, end: NOW - 100, period_days: 1 },
  },
  {
    rule: "epoch bounds keep their exact precision",
    q: { start: "1772900000.5", end: "1772986400.25" },
    want: { mode: "custom", start: 1772900000.5, end: 1772986400.25 },
  },
  {
    rule: "an end beyond now is clamped to now",
    q: { start: "2026-03-09", end: String(NOW + 3600) },
    want: { mode: "custom", start: at("2026-03-09T00:00:00-04:00"), end: NOW, period_days: 2 },
  },
  {
    rule: "an end date equal to today clamps to now",
    q: { start: "2026-03-09", end: "2026-03-10" },
    want: { mode: "custom", start: at("2026-03-09T00:00:00-04:00"), end: NOW },
  },
  {
    rule: "an end date after today clamps to now",
    q: { start: "2026-03-09", end: "2026-04-01" },
    want: { mode: "custom", start: at("2026-03-09T00:00:00-04:00"), end: NOW },
  },
  {
    rule: "start only (date): runs to now",
    q: { start: "2026-03-01" },
    want: { mode: "custom", start: at("2026-03-01T00:00:00-05:00"), end: NOW, period_days: 10 },
  },
  {
    rule: "start only (epoch): runs to now",
    q: { start: String(NOW - 7200) },
    want: { mode: "custom", start: NOW - 7200, end: NOW, period_days: 1 },
  },
  {
    rule: "end only (date): 30 calendar days, local midnight to local midnight",
    q: { end: "2026-03-09" },
    want: {
      mode: "custom",
      start: at("2026-02-08T00:00:00-05:00"),
      end: at("2026-03-10T00:00:00-04:00"),
      period_days: 30,
    },
  },
  {
    rule: "end only (epoch): exactly 30 × 86400 s, landing on another local date across DST",
    q: { end: String(at("2026-03-10T00:00:00-04:00")) },
    want: {
      mode: "custom",
      start: at("2026-02-07T23:00:00-05:00"),
      end: at("2026-03-10T00:00:00-04:00"),
      period_days: 30,
    },
  },
  {
    rule: "end only, today's date: the last 30 calendar days including today, to now",
    q: { end: "2026-03-10" },
    want: { mode: "custom", start: at("2026-02-09T00:00:00-05:00"), end: NOW, period_days: 30 },
  },
  {
    rule: "end only, a future date: clamped to today before reaching back",
    q: { end: "2026-12-31" },
    want: { mode: "custom", start: at("2026-02-09T00:00:00-05:00"), end: NOW },
  },
  {
    rule: "end only, a future epoch: clamped to now before reaching back",
    q: { end: String(NOW + DAY) },
    want: { mode: "custom", start: NOW - 30 * DAY, end: NOW },
  },
  {
    rule: "2026-02-31 is unparseable: falls back to the trailing window",
    q: { start: "2026-02-31", end: "2026-03-05" },
    want: { ...trailing30, reason: /2026-02-31/ },
  },
  {
    rule: "2026-02-29 is not a date (2026 is not a leap year)",
    q: { start: "2026-02-29" },
    want: { ...trailing30, reason: /not a calendar date/ },
  },
  {
    rule: "2024-02-29 is a date (2024 is a leap year)",
    q: { start: "2024-02-29", end: "2024-02-29" },
    want: {
      mode: "custom",
      start: at("2024-02-29T00:00:00-05:00"),
      end: at("2024-03-01T00:00:00-05:00"),
    },
  },
  {
    rule: "a supplied-but-invalid start is never treated as omitted (no end-only window)",
    q: { start: "yesterday", end: "2026-03-09" },
    want: { ...trailing30, reason: /neither epoch seconds nor a YYYY-MM-DD date/ },
  },
  {
    rule: "an empty start is supplied-and-invalid, not omitted",
    q: { start: "", end: "2026-03-09" },
    want: trailing30,
  },
  {
    rule: "a pre-epoch date (Chromium accepts 0001-01-01) falls back",
    q: { start: "0001-01-01", end: "2026-03-09" },
    want: { ...trailing30, reason: /before 1970/ },
  },
  { rule: "1969-12-31 falls back", q: { start: "1969-12-31" }, want: trailing30 },
  { rule: "a negative epoch falls back", q: { start: "-5" }, want: trailing30 },
  {
    rule: "an epoch beyond the supported range falls back (milliseconds by mistake)",
    q: { end: "999999999999999" },
    want: { ...trailing30, reason: /outside the supported range/ },
  },
  {
    rule: "a bound with days: the trailing fallback keeps the requested days",
    q: { days: "7", start: "2026-02-31" },
    want: { mode: "trailing", start: NOW - 7 * DAY, end: NOW, days: 7 },
  },
  {
    rule: "a strictly-future start date falls back",
    q: { start: "2026-03-11" },
    want: { ...trailing30, reason: /in the future/ },
  },
  {
    rule: "a strictly-future start epoch (now + 1 s) falls back",
    q: { start: String(NOW + 1), end: String(NOW + 100) },
    want: trailing30,
  },
  {
    rule: "start == now stays an empty custom window",
    q: { start: String(NOW) },
    want: { mode: "custom", start: NOW, end: NOW, period_days: 0 },
  },
  {
    rule: "start == end == now stays an empty custom window",
    q: { start: String(NOW), end: String(NOW) },
    want: { mode: "custom", start: NOW, end: NOW, period_days: 0 },
  },
  {
    rule: "a custom window is clamped to five calendar years",
    q: { start: "2015-01-01", end: "2026-03-09" },
    want: {
      mode: "custom",
      start: at("2021-03-10T00:00:00-05:00"),
      end: at("2026-03-10T00:00:00-04:00"),
    },
  },
  {
    rule: "usable bounds win over days",
    q: { days: "7", start: "2026-03-01", end: "2026-03-01" },
    want: { mode: "custom", start: at("2026-03-01T00:00:00-05:00"), days: 7, period_days: 1 },
  },
  {
    rule: "a local midnight inside a DST gap: the day starts where the gap ends (Santiago)",
    tz: "America/Santiago",
    q: { start: "2026-09-06", end: "2026-09-06" },
    now: at("2026-09-10T12:00:00-03:00"),
    want: {
      mode: "custom",
      start: at("2026-09-06T01:00:00-03:00"),
      end: at("2026-09-07T00:00:00-03:00"),
      period_days: 1,
    },
  },
];

for (const row of ROWS) {
  Deno.test(`resolveInsightsWindow(): ${row.rule}`, () => {
    const cal = row.tz ? localCalendar(row.tz) : NY;
    const got = resolveInsightsWindow(
      { days: row.q.days ?? null, start: row.q.start ?? null, end: row.q.end ?? null },
      row.now ?? NOW,
      cal,
    );
    const { reason, ...want } = row.want;
    for (const [key, value] of Object.entries(want)) {
      strictEqual(got[key as keyof InsightsWindow], value, `${key} of ${JSON.stringify(got)}`);
    }
    ok(got.end <= (row.now ?? NOW), "the window never reaches past now");
    ok(got.start <= got.end, "start never after end");
    if (got.mode === "trailing" && (row.q.start !== undefined || row.q.end !== undefined)) {
      ok(got.fallback_reason, "a fallback says why");
    }
    if (reason) match(got.fallback_reason ?? "", reason);
  });
}

Deno.test("windowDays() splits a DST-spanning window into whole local days", () => {
  const w = resolveInsightsWindow({ days: null, start: "2026-03-06", end: "2026-03-09" }, NOW, NY);
  const days = windowDays(w, NY);
  deepStrictEqual(days.map((d) => d.date), [
    "2026-03-06",
    "2026-03-07",
    "2026-03-08",
    "2026-03-09",
  ]);
  deepStrictEqual(days.map((d) => d.stop - d.start), [DAY, DAY, DAY - 3600, DAY]);
  deepStrictEqual(days.map((d) => d.weekday), [4, 5, 6, 0], "Fri, Sat, Sun, Mon (0 = Monday)");
  strictEqual(days[0].start, w.start);
  strictEqual(days.at(-1)!.stop, w.end);
  for (let i = 1; i < days.length; i++) strictEqual(days[i].start, days[i - 1].stop);
});

Deno.test("windowDays() clips the first and last day of a trailing window", () => {
  const w = resolveInsightsWindow({ days: "7", start: null, end: null }, NOW, NY);
  const days = windowDays(w, NY);
  strictEqual(days.length, 8, "seven 24-hour periods touch eight calendar dates");
  strictEqual(days[0].date, "2026-03-03");
  strictEqual(days.at(-1)!.date, "2026-03-10");
  strictEqual(days[0].start, NOW - 7 * DAY);
  strictEqual(days.at(-1)!.stop, NOW);
  strictEqual(days.reduce((s, d) => s + (d.stop - d.start), 0), 7 * DAY);
});

Deno.test("windowDays() of an empty window is empty", () => {
  deepStrictEqual(windowDays({ start: NOW, end: NOW }, NY), []);
});

Deno.test("localCalendar() reads wall-clock parts and normalizes overflowing dates", () => {
  deepStrictEqual(NY.parts(at("2026-03-08T03:00:00-04:00")), {
    year: 2026,
    month: 3,
    day: 8,
    hour: 3,
    minute: 0,
    second: 0,
    weekday: 6,
  });
  strictEqual(NY.midnight(2026, 3, 0), at("2026-02-28T00:00:00-05:00"));
  strictEqual(NY.midnight(2026, 12, 32), at("2027-01-01T00:00:00-05:00"));
  strictEqual(NY.midnight(2026, 11, 1), at("2026-11-01T00:00:00-04:00"));
});

Deno.test("serverCalendar() follows TZ and ignores an unknown zone", () => {
  strictEqual(serverCalendar("America/New_York").timeZone, "America/New_York");
  strictEqual(serverCalendar(":Europe/Berlin").timeZone, "Europe/Berlin");
  ok(serverCalendar("Not/AZone").timeZone.length > 0);
});
