// The one way UI text is produced: `t(key, values)` looks the key up in the active locale's
// catalog and formats it with ICU MessageFormat (plurals, selects, numbers) from the parsed message
// (lib/i18n/format_message.ts: the platform's Intl, no formatting library in the pages).
// Used alike by server-rendered components, islands and page scripts.
// - In the browser the catalog is the page's `#hermes-i18n` JSON (lib/i18n/catalog.ts), read
//   once; only that locale ships, its formatted messages already parsed.
// - On the server a render runs inside `withLocale()`, which is safe because renders are
//   synchronous; outside one (unit tests, logs) English is used. The server's catalog files are
//   read by lib/i18n/catalog.ts, which installs itself here when loaded (this module stays
//   browser-safe: no Deno API, no server import).
// A key missing from the catalog renders as the key itself, so it shows up rather than hides.
import { directionOf, type Locale, SOURCE_LOCALE } from "./locales.ts";
import { formatMessageAst, type MessageAst } from "./format_message.ts";

export type { MessageAst };
/** What a page ships (lib/i18n/catalog.ts): plain text where no formatting is needed, else the AST. */
export interface CatalogPayload {
  locale: Locale;
  dir: "ltr" | "rtl";
  messages: Record<string, string | MessageAst>;
}

type Values = Record<string, string | number | boolean | Date | null | undefined>;

interface Active {
  locale: Locale;
  dir: "ltr" | "rtl";
  messages: Record<string, string | MessageAst>;
  /** Source text parsed on first use (server catalogs hold text; pages get ASTs already). */
  compiled: Map<string, MessageAst>;
}

let active: Active | null = null;
/** The server's catalog reader (lib/i18n/catalog.ts installs it); unset in the browser. */
let serverMessages: ((locale: Locale) => Record<string, string>) | undefined;
/** The server's ICU parser (tags kept as text); unset in the browser, whose messages come parsed. */
let parseSource: ((source: string, locale: Locale) => MessageAst) | undefined;

/** Called once by lib/i18n/catalog.ts when the server loads it. */
export function installServerCatalog(
  read: (locale: Locale) => Record<string, string>,
  parse?: (source: string, locale: Locale) => MessageAst,
): void {
  serverMessages = read;
  parseSource = parse ?? parseSource;
}

function fromPayload(p: CatalogPayload): Active {
  return { locale: p.locale, dir: p.dir, messages: p.messages, compiled: new Map() };
}

const serverActive = new Map<Locale, Active>();
function serverCatalog(locale: Locale): Active | null {
  if (!serverMessages) return null;
  let a = serverActive.get(locale);
  if (!a) {
    a = { locale, dir: directionOf(locale), messages: serverMessages(locale), compiled: new Map() };
    serverActive.set(locale, a);
  }
  return a;
}

function current(): Active | null {
  if (active) return active;
  const doc = (globalThis as { document?: Document }).document;
  const node = doc?.getElementById("hermes-i18n");
  if (node?.textContent) {
    active = fromPayload(JSON.parse(node.textContent) as CatalogPayload);
    return active;
  }
  return serverCatalog(SOURCE_LOCALE);
}

/** Run the synchronous `fn` (a server render) with `locale` active, then restore. */
export function withLocale<T>(locale: Locale, fn: () => T): T {
  const outer = active;
  active = serverCatalog(locale) ?? outer;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** The active locale (the page's in the browser; the render's on the server). */
export function currentLocale(): Locale {
  return current()?.locale ?? SOURCE_LOCALE;
}

/** The active writing direction. */
export function currentDirection(): "ltr" | "rtl" {
  return current()?.dir ?? "ltr";
}

/** The message `key` in the active locale, formatted with `values`. */
export function t(key: string, values?: Values): string {
  const cat = current();
  const msg = cat?.messages[key];
  if (msg === undefined || !cat) return key;
  if (typeof msg === "string" && !/[{}'<#]/.test(msg)) return msg;
  let ast = typeof msg === "string" ? cat.compiled.get(key) : msg;
  if (!ast) {
    if (!parseSource) return msg as string; // no parser here: the text as written
    ast = parseSource(msg as string, cat.locale);
    cat.compiled.set(key, ast);
  }
  return formatMessageAst(ast, cat.locale, values);
}

/** Does the active catalog have `key`? (For text that is optional, such as hints.) */
export function hasMessage(key: string): boolean {
  return current()?.messages[key] !== undefined;
}

/** A number in the active locale (`Intl.NumberFormat`). */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLocale(), options).format(n);
}

/** A date/time in the active locale (`Intl.DateTimeFormat`). */
export function formatDate(d: Date | number, options?: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(currentLocale(), options).format(d);
}

/** "3 minutes ago" / "in 2 days" in the active locale (`Intl.RelativeTimeFormat`). */
export function formatRelative(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return new Intl.RelativeTimeFormat(currentLocale(), { numeric: "auto" }).format(value, unit);
}

/** For tests: forget the browser catalog read from the page. */
export function resetActiveCatalogForTests(): void {
  active = null;
}
