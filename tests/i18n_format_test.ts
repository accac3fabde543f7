// lib/i18n/format_message.ts stands in for intl-messageformat's runtime in the pages: for every
// message of every locale that needs formatting, and values that walk each plural and select
// arm, it gives exactly what intl-messageformat gives (tags kept as text, as on the server) —
// from the AST a page ships and from the server's own parse alike.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { IntlMessageFormat } from "intl-messageformat";
import { catalogPayloadJson, messagesFor, needsFormatting } from "../lib/i18n/catalog.ts";
import { LOCALES } from "../lib/i18n/locales.ts";
import { formatMessageAst } from "../lib/i18n/format_message.ts";
import type { MessageAst } from "../lib/i18n/t.ts";
import { t, withLocale } from "../lib/i18n/t.ts";

type Values = Record<string, string | number>;
const NUMBERS = [0, 1, 2, 3, 4, 5, 11, 21, 22, 100, 101, 1234.5, 1.5];

/** Value sets that reach every arm: numbers for plurals and numbers, each select key in turn. */
function valueSets(ast: MessageAst): Values[] {
  const numeric = new Set<string>();
  const selects = new Map<string, string[]>();
  const plain = new Set<string>();
  const walk = (els: MessageAst) => {
    for (const el of els as unknown as Array<Record<string, unknown>>) {
      const name = el.value as string;
      if (el.type === 1) plain.add(name);
      if (el.type === 2 || el.type === 6) numeric.add(name);
      if (el.type === 5) {
        selects.set(name, [...Object.keys(el.options as object), "__unlisted"]);
      }
      const options = el.options as Record<string, { value: MessageAst }> | undefined;
      if (options) { for (const o of Object.values(options)) walk(o.value); }
      if (Array.isArray(el.children)) walk(el.children as MessageAst);
    }
  };
  walk(ast);
  const arms = Math.max(NUMBERS.length, ...[...selects.values()].map((k) => k.length));
  return Array.from({ length: arms }, (_, i) => {
    const v: Values = {};
    for (const name of plain) v[name] = i % 3 === 0 ? `x${i}` : i;
    for (const name of numeric) v[name] = NUMBERS[i % NUMBERS.length];
    for (const [name, keys] of selects) v[name] = keys[i % keys.length];
    return v;
  });
}

Deno.test("formatMessageAst() formats every catalog message as intl-messageformat does", () => {
  let compared = 0;
  const differences: string[] = [];
  for (const locale of LOCALES) {
    const shipped = JSON.parse(catalogPayloadJson(locale)).messages as Record<string, unknown>;
    for (const [key, source] of Object.entries(messagesFor(locale))) {
      if (!needsFormatting(source)) continue;
      const reference = new IntlMessageFormat(source, locale, undefined, { ignoreTag: true });
      const serverAst = reference.getAst();
      for (const values of valueSets(shipped[key] as MessageAst)) {
        let want: string;
        try {
          want = String(reference.format(values));
        } catch {
          continue; // a select with no "other" arm and an unlisted value: no answer to compare
        }
        compared++;
        for (const [from, ast] of [["page", shipped[key]], ["server", serverAst]] as const) {
          const got = formatMessageAst(ast as MessageAst, locale, values);
          if (got !== want) {
            differences.push(
              `${locale} ${key} (${from}) ${JSON.stringify(values)}: ` +
                `${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`,
            );
          }
        }
      }
    }
  }
  deepStrictEqual(differences.slice(0, 20), []);
  strictEqual(compared > 1_000, true, `compared ${compared} formatted messages`);
});

Deno.test("formatMessageAst() throws on a missing value, as ICU formatting does", () => {
  const ast = new IntlMessageFormat("{n, plural, one {# file} other {# files}}", "en").getAst();
  throws(() => formatMessageAst(ast, "en", {}), /"n"/);
  strictEqual(formatMessageAst(ast, "en", { n: 1 }), "1 file");
  strictEqual(formatMessageAst(ast, "en", { n: 1200 }), "1,200 files");
});

Deno.test("t() on the server formats with the same code (Arabic plurals, Japanese numbers)", () => {
  for (const locale of ["ar", "ja", "en"] as const) {
    withLocale(locale, () => {
      const source = messagesFor(locale);
      const key = Object.keys(source).find((k) => /plural/.test(source[k]))!;
      const ast = new IntlMessageFormat(source[key], locale, undefined, { ignoreTag: true })
        .getAst();
      for (const values of valueSets(ast)) {
        let want: string;
        try {
          want = String(new IntlMessageFormat(source[key], locale).format(values));
        } catch {
          continue;
        }
        strictEqual(t(key, values), want, `${locale} ${key}`);
      }
    });
  }
});
