// The message catalog (lib/i18n): every locale has every key and no other; every message is
// valid ICU MessageFormat with the same arguments as English; a page ships only its own
// locale; Arabic renders right-to-left; and no view writes English outside the catalog
// (tools/i18n_literals.ts).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { IntlMessageFormat } from "intl-messageformat";
import { catalogPayloadJson, type MessageAst, readLocaleFiles } from "../lib/i18n/catalog.ts";
import { localeFromAcceptLanguage, LOCALES, pickLocale } from "../lib/i18n/locales.ts";
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
  strictEqual(pickLocale("auto", "ko-KR, en;q=0"), "en");
  strictEqual(pickLocale("xx", "es-419"), "es");
  strictEqual(localeFromAcceptLanguage("fr;q=0.2, ar;q=0.8"), "ar");
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
