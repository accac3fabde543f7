// The languages the console speaks, and how a request picks one. Invariants: the answer is
// always one of LOCALES; an explicit `language` setting wins over the browser; unknown tags
// fall back to English. Shared by the server and the browser (no Deno APIs here).

/** Every locale with a full catalog under lib/i18n/messages/<locale>/. English is the source. */
export const LOCALES = [
  "en",
  "es",
  "de",
  "fr",
  "ja",
  "zh-Hans",
  "zh-Hant",
  "ru",
  "ar",
  "pt",
  "ko",
  "cs",
  "tr",
  "pl",
  "vi",
] as const;
export type Locale = typeof LOCALES[number];
export const SOURCE_LOCALE: Locale = "en";

/** Each locale's name in its own language, for the Appearance picker (data, not UI text). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  es: "Español",
  de: "Deutsch",
  fr: "Français",
  ja: "日本語",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
  ru: "Русский",
  ar: "العربية",
  pt: "Português",
  ko: "한국어",
  cs: "Čeština",
  tr: "Türkçe",
  pl: "Polski",
  vi: "Tiếng Việt",
};

/**
 * The region tag the original's login page writes in `lang` for each locale (zh-CN, zh-TW,
 * ru-RU…): its clients and tests read these; our pages otherwise use the locale ids.
 */
export const REGION_TAGS: Readonly<Record<Locale, string>> = {
  en: "en",
  es: "es-ES",
  de: "de-DE",
  fr: "fr-FR",
  ja: "ja-JP",
  "zh-Hans": "zh-CN",
  "zh-Hant": "zh-TW",
  ru: "ru-RU",
  ar: "ar",
  pt: "pt-BR",
  ko: "ko-KR",
  cs: "cs-CZ",
  tr: "tr-TR",
  pl: "pl-PL",
  vi: "vi-VN",
};

const RTL: ReadonlySet<Locale> = new Set(["ar"]);

/** Writing direction of `locale`: the page mirrors through logical CSS properties. */
export function directionOf(locale: Locale): "ltr" | "rtl" {
  return RTL.has(locale) ? "rtl" : "ltr";
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * Map one BCP 47 tag to a supported locale, or undefined. Chinese picks its script: an explicit
 * Hant/Hans subtag wins, then the region (TW, HK, MO write Traditional).
 */
export function matchLocale(tag: string): Locale | undefined {
  const parts = tag.trim().replace(/_/g, "-").split("-").filter(Boolean);
  if (!parts.length) return undefined;
  const lang = parts[0].toLowerCase();
  if (lang === "zh") {
    const rest = parts.slice(1).map((p) => p.toLowerCase());
    if (rest.includes("hant")) return "zh-Hant";
    if (rest.includes("hans")) return "zh-Hans";
    return rest.some((p) => p === "tw" || p === "hk" || p === "mo") ? "zh-Hant" : "zh-Hans";
  }
  return LOCALES.find((l) => l === lang);
}

/** The browser's preference list (Accept-Language), best first, mapped to our locales. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header.split(",").map((part, i) => {
    const [tag, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    return { tag, weight: Number.isFinite(weight) ? weight : 0, i };
  }).filter((r) => r.tag && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  for (const r of ranked) {
    const hit = matchLocale(r.tag);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The locale a page is rendered in: the `language` setting when it names a locale (old
 * clients may store "zh" or "zh-CN"), otherwise the browser's Accept-Language, else English.
 */
export function pickLocale(setting: unknown, acceptLanguage: string | null | undefined): Locale {
  if (typeof setting === "string" && setting !== "" && setting !== "auto") {
    const chosen = matchLocale(setting);
    if (chosen) return chosen;
  }
  return localeFromAcceptLanguage(acceptLanguage) ?? SOURCE_LOCALE;
}
