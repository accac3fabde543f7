// Control Center › Appearance: the theme (light, dark, or the system's) and whether the
// model's thinking shows in the transcript. The theme is applied at once through the
// `hermes:theme-change` event (lib/browser/pages/layout.ts applies and saves it).
import type { PublicSettings } from "../../lib/settings/settings.ts";
import { Section, StatusLine } from "./parts.tsx";

export type AppearanceData = Pick<PublicSettings, "theme" | "show_thinking">;

const THEMES = [
  { value: "light", label: "Light", hint: "Parchment" },
  { value: "dark", label: "Dark", hint: "Ink" },
  { value: "system", label: "System", hint: "Follows the device" },
] as const;

export function AppearancePanel({ data }: { data: AppearanceData }) {
  return (
    <>
      <Section hook="theme" title="Theme">
        <fieldset class="cc-choice" data-cc-theme>
          <legend class="visually-hidden">Theme</legend>
          {THEMES.map((t) => (
            <label key={t.value} class="cc-choice-item" data-theme-option={t.value}>
              <input type="radio" name="theme" value={t.value} checked={data.theme === t.value} />
              <span class="cc-swatch" data-swatch={t.value} aria-hidden="true" />
              <span class="cc-choice-text">
                <span class="cc-choice-label">{t.label}</span>
                <span class="cc-choice-hint">{t.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </Section>
      <Section hook="thinking" title="Transcript">
        <label class="cc-toggle">
          <input
            type="checkbox"
            role="switch"
            data-cc-setting="show_thinking"
            checked={data.show_thinking}
          />
          <span class="cc-toggle-track" aria-hidden="true" />
          <span class="cc-toggle-text">
            Show thinking
            <span class="cc-hint">
              The model's reasoning, inside each turn's Activity row.
            </span>
          </span>
        </label>
        <StatusLine hook="appearance" />
      </Section>
    </>
  );
}
