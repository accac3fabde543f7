// Browser-safe: imports nothing from Deno or the database.
// Formats a parsed ICU message (the AST lib/i18n/catalog.ts ships to pages) with the platform's
// Intl: literals, arguments, numbers, selects, plurals with `#`, and tags kept as their text
// (as ignoreTag does on the server). It stands in for intl-messageformat's runtime, which every
// page would otherwise download; tests/i18n_format_test.ts holds the two to the same output
// for every message of every catalog.
import type { IntlMessageFormat } from "intl-messageformat";

/** A parsed message: ICU's AST (what intl-messageformat's parser makes of source text). */
export type MessageAst = ReturnType<IntlMessageFormat["getAst"]>;

type Value = string | number | boolean | Date | null | undefined;
type Values = Record<string, Value> | undefined;

// The element kinds of @formatjs/icu-messageformat-parser's AST (its TYPE enum).
const LITERAL = 0, ARGUMENT = 1, NUMBER = 2, DATE = 3, TIME = 4, SELECT = 5, PLURAL = 6;
const POUND = 7, TAG = 8;

interface Element {
  type: number;
  value: string;
  style?: string | { parsedOptions?: object } | null;
  options?: Record<string, { value: Element[] }>;
  offset?: number;
  pluralType?: "cardinal" | "ordinal";
  children?: Element[];
}

/** intl-messageformat's named number and date styles. */
type NumberStyle = Intl.NumberFormatOptions & { scale?: number };
const NUMBER_STYLES: Record<string, NumberStyle> = {
  integer: { maximumFractionDigits: 0 },
  currency: { style: "currency" },
  percent: { style: "percent" },
};
const DATE_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { month: "numeric", day: "numeric", year: "2-digit" },
  medium: { month: "short", day: "numeric", year: "numeric" },
  long: { month: "long", day: "numeric", year: "numeric" },
  full: { weekday: "long", month: "long", day: "numeric", year: "numeric" },
};
const TIME_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { hour: "numeric", minute: "numeric" },
  medium: { hour: "numeric", minute: "numeric", second: "numeric" },
  long: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
  full: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
};

function valueOf(values: Values, name: string): Value {
  if (!values || !(name in values)) {
    throw new Error(`The intl string context variable "${name}" was not provided`);
  }
  return values[name];
}

function styleOptions<T>(style: Element["style"], named: Record<string, T>): T | undefined {
  if (!style) return undefined;
  return typeof style === "string" ? named[style] : style.parsedOptions as T;
}

function formatElements(
  els: readonly Element[],
  locale: string,
  values: Values,
  pound: number | null,
): string {
  let out = "";
  for (const el of els) {
    switch (el.type) {
      case LITERAL:
        out += el.value;
        break;
      case POUND:
        if (pound !== null) out += new Intl.NumberFormat(locale).format(pound);
        break;
      case ARGUMENT: {
        const v = valueOf(values, el.value);
        out += typeof v === "string" || typeof v === "number" ? String(v) : v ? String(v) : "";
        break;
      }
      case NUMBER: {
        const v = valueOf(values, el.value) as number;
        const opts = styleOptions<NumberStyle>(el.style, NUMBER_STYLES);
        out += new Intl.NumberFormat(locale, opts).format(opts?.scale ? v * opts.scale : v);
        break;
      }
      case DATE:
      case TIME: {
        const v = valueOf(values, el.value) as number | Date;
        const named = el.type === DATE ? DATE_STYLES : TIME_STYLES;
        const opts = styleOptions(el.style, named);
        out += new Intl.DateTimeFormat(locale, opts).format(v);
        break;
      }
      case SELECT: {
        const v = String(valueOf(values, el.value));
        const opt = el.options![v] ?? el.options!.other;
        if (!opt) throw new Error(`No option "${v}" (nor "other") in {${el.value}, select}`);
        out += formatElements(opt.value, locale, values, null); // `#` is a plural's alone
        break;
      }
      case PLURAL: {
        const v = valueOf(values, el.value) as number;
        const offset = el.offset ?? 0;
        let opt = el.options![`=${v}`];
        if (!opt) {
          const rule = new Intl.PluralRules(locale, { type: el.pluralType }).select(v - offset);
          opt = el.options![rule] ?? el.options!.other;
        }
        if (!opt) throw new Error(`No option for ${v} (nor "other") in {${el.value}, plural}`);
        out += formatElements(opt.value, locale, values, v - offset);
        break;
      }
      case TAG:
        out += `<${el.value}>${
          formatElements(el.children ?? [], locale, values, pound)
        }</${el.value}>`;
        break;
    }
  }
  return out;
}

/** The message `ast` in `locale` with `values` (a missing value throws, as ICU does). */
export function formatMessageAst(ast: MessageAst, locale: string, values?: Values): string {
  return formatElements(ast as unknown as Element[], locale, values, null);
}
