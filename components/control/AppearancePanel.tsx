// Control Center › Appearance: the theme (light, dark, or the system's), the language, and
// whether the model's thinking shows in the transcript. The theme is applied at once through the
// `hermes:theme-change` event (lib/browser/pages/layout.ts applies and saves it); a new language
// is saved, then the page reloads so the server renders it in that language
// (lib/browser/control/control_center.ts).
import type { PublicSettings } from "../../lib/settings/settings.ts";
import { LOCALE_NAMES, LOCALES, matchLocale } from "../../lib/i18n/locales.ts";
import { t } from "../../lib/i18n/t.ts";
import { Field, Section, StatusLine, SwitchField } from "./parts.tsx";
import { DisplayOptions, type DisplayOptionsData, NotifyOption } from "./DisplayOptions.tsx";
import { TranscriptOptions, type TranscriptOptionsData } from "./TranscriptOptions.tsx";

export type AppearanceData = Pick<PublicSettings, "theme" | "show_thinking"> & {
  /** The `language` preference: "auto" (the browser's) or a locale tag. */
  language: string;
  /** Conversation display (components/control/TranscriptOptions.tsx). */
  transcript: TranscriptOptionsData;
} & DisplayOptionsData;

const THEMES = [
  { value: "light", labelKey: "control.themeLight", hintKey: "control.themeLightHint" },
  { value: "dark", labelKey: "control.themeDark", hintKey: "control.themeDarkHint" },
  { value: "system", labelKey: "control.themeSystem", hintKey: "control.themeSystemHint" },
] as const;

/** The language picker: "auto", then each locale in its own name (names are data). */
function LanguageSection({ language }: { language: string }) {
  const chosen = language === "auto" ? "auto" : matchLocale(language) ?? "auto";
  return (
    <Section hook="language" title={t("control.language")}>
      <Field id="cc-language" label={t("control.languageLabel")}>
        <select id="cc-language" class="cc-input" data-cc-setting="language">
          <option value="auto" selected={chosen === "auto"}>{t("control.languageAuto")}</option>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l} selected={chosen === l}>{LOCALE_NAMES[l]}</option>
          ))}
        </select>
      </Field>
      <StatusLine hook="language" />
    </Section>
  );
}

export function AppearancePanel({ data }: { data: AppearanceData }) {
  return (
    <>
      <Section hook="theme" title={t("control.theme")}>
        <fieldset class="cc-choice" data-cc-theme>
          <legend class="visually-hidden">{t("control.theme")}</legend>
          {THEMES.map((theme) => (
            <label key={theme.value} class="cc-choice-item" data-theme-option={theme.value}>
              <input
                type="radio"
                name="theme"
                value={theme.value}
                checked={data.theme === theme.value}
              />
              <span class="cc-swatch" data-swatch={theme.value} aria-hidden="true" />
              <span class="cc-choice-text">
                <span class="cc-choice-label">{t(theme.labelKey)}</span>
                <span class="cc-choice-hint">{t(theme.hintKey)}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </Section>
      <DisplayOptions data={data} />
      <LanguageSection language={data.language} />
      <Section hook="thinking" title={t("control.transcript")}>
        <SwitchField
          checked={data.show_thinking}
          label={t("control.showThinking")}
          hint={t("control.showThinkingHint")}
          hooks={{ "data-cc-setting": "show_thinking" }}
        />
        <StatusLine hook="appearance" />
      </Section>
      <TranscriptOptions data={data.transcript} />
      <NotifyOption data={data} />
    </>
  );
}
