// A locale's messages: every lib/i18n/messages/<locale>/<area>.json merged, over English so a
// key a translation lacks still reads (the catalog test fails on it first). Also the payload a
// page ships: only the active locale, with every message that needs ICU formatting parsed here
// (the browser formats them with lib/i18n/format_message.ts, no ICU library). Server side only: the
// browser gets its catalog from the page (lib/i18n/t.ts).
import { IntlMessageFormat } from "intl-messageformat";
import { directionOf, type Locale, LOCALES, SOURCE_LOCALE } from "./locales.ts";
import { type CatalogPayload, installServerCatalog, type MessageAst } from "./t.ts";

export type { CatalogPayload, MessageAst };

/** A message as stored in the catalog files: ICU MessageFormat source text. */
export type MessageSource = Record<string, string>;

const MESSAGES_DIR = new URL("./messages/", import.meta.url);

/** One locale's own files, unmerged: area → messages (for the catalog test and the merge). */
export function readLocaleFiles(locale: string): Map<string, MessageSource> {
  const dir = new URL(`${locale}/`, MESSAGES_DIR);
  const out = new Map<string, MessageSource>();
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name).sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return out;
    throw err;
  }
  for (const name of names) {
    out.set(name.slice(0, -5), JSON.parse(Deno.readTextFileSync(new URL(name, dir))));
  }
  return out;
}

const merged = new Map<Locale, MessageSource>();

/** Every message of `locale`, English underneath. Read once per locale per process. */
export function messagesFor(locale: Locale): MessageSource {
  let m = merged.get(locale);
  if (m) return m;
  const flat = (l: string) => Object.assign({}, ...readLocaleFiles(l).values()) as MessageSource;
  m = locale === SOURCE_LOCALE
    ? flat(SOURCE_LOCALE)
    : { ...messagesFor(SOURCE_LOCALE), ...flat(locale) };
  merged.set(locale, m);
  return m;
}

/** True when `source` needs the formatter: an argument, a plural/select, or ICU quoting. */
export function needsFormatting(source: string): boolean {
  return /[{}'<#]/.test(source);
}

const payloads = new Map<Locale, { keys: readonly string[] | undefined; json: string }>();

/**
 * The active locale's catalog as the JSON a page embeds (`<script type="application/json">`,
 * never executed: CSP): only `keys` when given (what the browser bundle names, from the build
 * manifest), else every message. `<` is escaped so no message can close the script element.
 */
export function catalogPayloadJson(locale: Locale, keys?: readonly string[]): string {
  const cached = payloads.get(locale);
  if (cached && cached.keys === keys) return cached.json;
  const all = messagesFor(locale);
  const messages: CatalogPayload["messages"] = {};
  for (const key of keys ?? Object.keys(all)) {
    const source = all[key];
    if (source === undefined) continue;
    messages[key] = needsFormatting(source)
      ? new IntlMessageFormat(source, locale).getAst()
      : source;
  }
  const payload: CatalogPayload = { locale, dir: directionOf(locale), messages };
  const json = JSON.stringify(payload).replace(/</g, "\\u003c");
  payloads.set(locale, { keys, json });
  return json;
}

// Loading this module is what lets t() read catalog files (and parse them) on the server.
installServerCatalog(
  messagesFor,
  (source, locale) =>
    new IntlMessageFormat(source, locale, undefined, { ignoreTag: true }).getAst(),
);

export { LOCALES };
