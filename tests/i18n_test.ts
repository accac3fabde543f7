// The message catalog (lib/i18n): every locale has every key and no other; every message is
// valid ICU MessageFormat with the same arguments as English; a page ships only its own
// locale; Arabic renders right-to-left; and no view writes English outside the catalog
// (tools/i18n_literals.ts).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { IntlMessageFormat } from "intl-messageformat";
import { catalogPayloadJson, type MessageAst, readLocaleFiles } from "../lib/i18n/catalog.ts";
import {
  directionOf,
  LOCALE_NAMES,
  localeFromAcceptLanguage,
  LOCALES,
  pickLocale,
} from "../lib/i18n/locales.ts";
import { formatNumber, t, withLocale } from "../lib/i18n/t.ts";
import { findLiterals, uiFiles } from "../tools/i18n_literals.ts";

/** The argument names a parsed message uses, sorted (plural/select arms included). */
function argumentsOf(ast: MessageAst): string[] {
  const names = new Set<string>();
  const walk = (els: MessageAst) => {
    for (const el of els as unknown as Array<Record<string, unknown>>) {
      if (typeof el.value === "string" && el.type !== 0 && el.type !== 7) names.add(el.value);
      const options = el.options as Record<string, { value: MessageAst }> | undefined;
      if (options) { for (const o of Object.values(options)) walk(o.value); }
      if (Array.isArray(el.children)) walk(el.children as MessageAst);
    }
  };
  walk(ast);
  return [...names].sort();
}

Deno.test("every locale has exactly English's areas and keys, and each message parses with the same arguments", () => {
  const en = readLocaleFiles("en");
  ok(en.size > 0, "the English catalog exists");
  const problems: string[] = [];
  for (const [area, messages] of en) {
    for (const key of Object.keys(messages)) {
      if (!key.startsWith(`${area}.`)) {
        problems.push(`en/${area}.json: key "${key}" not under "${area}."`);
      }
    }
  }
  for (const locale of LOCALES) {
    const files = readLocaleFiles(locale);
    deepStrictEqual([...files.keys()].sort(), [...en.keys()].sort(), `${locale}: area files`);
    for (const [area, source] of en) {
      const mine = files.get(area) ?? {};
      for (const key of Object.keys(source)) {
        if (!(key in mine)) problems.push(`${locale}/${area}.json misses "${key}"`);
      }
      for (const key of Object.keys(mine)) {
        if (!(key in source)) {
          problems.push(`${locale}/${area}.json has "${key}", which English lacks`);
        }
      }
      for (const [key, text] of Object.entries(mine)) {
        if (typeof text !== "string" || !text.trim()) {
          problems.push(`${locale}/${area}.json "${key}" is empty`);
          continue;
        }
        try {
          const args = argumentsOf(new IntlMessageFormat(text, locale).getAst());
          const want = argumentsOf(new IntlMessageFormat(source[key], "en").getAst());
          if (args.join() !== want.join()) {
            problems.push(`${locale} "${key}" uses {${args}} but English uses {${want}}`);
          }
        } catch (err) {
          problems.push(`${locale} "${key}" is not ICU MessageFormat: ${(err as Error).message}`);
        }
      }
    }
  }
  deepStrictEqual(problems, []);
});

Deno.test("a page's catalog payload holds one locale, parsed where formatting is needed", () => {
  const de = JSON.parse(catalogPayloadJson("de"));
  strictEqual(de.locale, "de");
  strictEqual(de.dir, "ltr");
  strictEqual(de.messages["login.signIn"], "Anmelden");
  ok(Array.isArray(de.messages["login.withProvider"]), "an ICU message ships parsed");
  const ar = JSON.parse(catalogPayloadJson("ar"));
  strictEqual(ar.dir, "rtl");
  ok(!catalogPayloadJson("ar").includes("Anmelden"), "no other locale rides along");
  ok(!catalogPayloadJson("en").includes("</"), "no message can close the script element");
});

Deno.test("t() formats in the render's locale, numbers through Intl, and shows an unknown key as itself", () => {
  strictEqual(t("login.signIn"), "Sign in");
  strictEqual(
    withLocale("fr", () => t("login.withProvider", { provider: "Okta" })),
    "Se connecter avec Okta",
  );
  strictEqual(withLocale("de", () => formatNumber(12345.5)), "12.345,5");
  strictEqual(withLocale("ar", () => t("login.signIn")), "تسجيل الدخول");
  strictEqual(t("no.such.key"), "no.such.key");
});

Deno.test("the locale follows the setting, else the browser, else English", () => {
  strictEqual(pickLocale("auto", "de-CH,de;q=0.9,en;q=0.5"), "de");
  strictEqual(pickLocale("ja", "de"), "ja");
  strictEqual(pickLocale("zh-CN", null), "zh-Hans");
  strictEqual(pickLocale("auto", "zh-TW"), "zh-Hant");
  strictEqual(pickLocale("auto", "th-TH, en;q=0"), "en", "a language without a catalog");
  strictEqual(pickLocale("xx", "es-419"), "es");
  strictEqual(localeFromAcceptLanguage("fr;q=0.2, ar;q=0.8"), "ar");
});

/** The languages the original has beside ours, by its locale codes (issue 30). */
const ADDED = ["pt", "ko", "cs", "tr", "pl", "vi"] as const;

Deno.test("the original's Portuguese, Korean, Czech, Turkish, Polish and Vietnamese are locales, picked from their tags", () => {
  for (const locale of ADDED) ok((LOCALES as readonly string[]).includes(locale), locale);
  strictEqual(pickLocale("auto", "pt-BR,pt;q=0.9"), "pt");
  strictEqual(pickLocale("auto", "ko-KR, en;q=0.5"), "ko");
  strictEqual(pickLocale("cs-CZ", "en"), "cs");
  strictEqual(pickLocale("tr", null), "tr");
  strictEqual(pickLocale("auto", "pl-PL"), "pl");
  strictEqual(pickLocale("vi_VN", "de"), "vi");
  deepStrictEqual(ADDED.map((l) => LOCALE_NAMES[l]), [
    "Português",
    "한국어",
    "Čeština",
    "Türkçe",
    "Polski",
    "Tiếng Việt",
  ]);
  for (const locale of ADDED) {
    strictEqual(directionOf(locale), "ltr");
    const payload = JSON.parse(catalogPayloadJson(locale));
    strictEqual(payload.locale, locale);
    ok(payload.messages["login.signIn"] !== "Sign in", `${locale} signs in in its own words`);
  }
});

Deno.test("the added locales give every whole number its grammatical plural form", () => {
  // ICU falls back to `other` when a category has no arm: in Czech and Polish that would print
  // "5 soubory" for "5 souborů". Each count from 1 must land on its own category's arm (or an
  // exact =N arm); a count of zero never reaches these messages.
  const missing: string[] = [];
  for (const locale of ADDED) {
    const rules = new Intl.PluralRules(locale);
    for (const messages of readLocaleFiles(locale).values()) {
      for (const [key, text] of Object.entries(messages)) {
        const walk = (els: MessageAst) => {
          for (const el of els as unknown as Array<Record<string, unknown>>) {
            const options = el.options as Record<string, { value: MessageAst }> | undefined;
            if (el.type === 6 && options && el.pluralType !== "ordinal") {
              for (let n = 1; n <= 200; n++) {
                const category = rules.select(n);
                if (category !== "other" && !(`=${n}` in options) && !(category in options)) {
                  missing.push(`${locale} "${key}" has no "${category}" arm (for ${n})`);
                  break;
                }
              }
            }
            if (options) { for (const o of Object.values(options)) walk(o.value); }
          }
        };
        walk(new IntlMessageFormat(text, locale).getAst());
      }
    }
  }
  deepStrictEqual(missing, []);
});

Deno.test("t() picks the plural forms of Czech, Polish, Portuguese, Korean and Turkish", () => {
  const files = (locale: "cs" | "pl" | "pt" | "ko" | "tr" | "vi", count: number) =>
    withLocale(locale, () => t("activity.filesChanged", { count }));
  deepStrictEqual([1, 3, 5, 22].map((n) => files("cs", n)), [
    "Změněn 1 soubor",
    "Změněny 3 soubory",
    "Změněno 5 souborů",
    "Změněno 22 souborů",
  ]);
  deepStrictEqual([1, 2, 5, 22, 25].map((n) => files("pl", n)), [
    "Zmieniono 1 plik",
    "Zmieniono 2 pliki",
    "Zmieniono 5 plików",
    "Zmieniono 22 pliki",
    "Zmieniono 25 plików",
  ]);
  deepStrictEqual([1, 4].map((n) => files("pt", n)), [
    "1 arquivo alterado",
    "4 arquivos alterados",
  ]);
  strictEqual(files("ko", 3), "파일 3개 변경됨");
  strictEqual(files("tr", 3), "3 dosya değişti");
  strictEqual(files("vi", 3), "Đã thay đổi 3 tệp");
  strictEqual(
    withLocale("pl", () => t("tasks.every", { unit: "hour", count: 5 })),
    "co 5 godzin",
  );
  strictEqual(
    withLocale("cs", () => t("extensions.profileDeletedChats", { name: "work", count: 2 })),
    "work smazán. 2 chaty smazány.",
  );
});

Deno.test("the literal finder reports shown English and ignores catalog calls and comparisons", () => {
  const found = findLiterals(
    "x.tsx",
    `export function A({ on }) {
      const v = on === "open" ? t("a.b") : null;
      return <div title="Close panel" aria-label={t("a.c")}>Hello there {on ? "Yes" : t("a.d")} · 42
        {/* i18n-ignore: brand */}
        <b>Hermes</b>
      </div>;
    }
    el("p", {}, "Nothing here");
    node.textContent = \`Saved \${n} files\`;`,
  ).map((l) => l.text);
  deepStrictEqual(found, ["Close panel", "Hello there", "Yes", "Nothing here", "Saved", "files"]);
});

Deno.test("no view or browser module shows English outside the catalog", () => {
  const found = uiFiles().flatMap((f) => findLiterals(f, Deno.readTextFileSync(f)));
  deepStrictEqual(found.map((l) => `${l.file}:${l.line}: ${l.text}`), []);
});
