// Control Center › Appearance: the skin and text size (painted from the first frame by
// routes/_app.tsx, applied live and saved by lib/browser/control/display_panel.ts), and the
// switch for system notifications when a run needs the person or finishes while the tab is
// hidden (lib/browser/attention.ts; the browser's permission is asked only from that switch).
import { FONT_SIZES, fontSizeOf, skinOf, SKINS } from "../../lib/shared/appearance.ts";
import type { FontSize, Skin } from "../../lib/shared/appearance.ts";
import { t } from "../../lib/i18n/t.ts";
import { Section, StatusLine, SwitchField } from "./parts.tsx";

export interface DisplayOptionsData {
  skin: Skin;
  font_size: FontSize;
  notifications_enabled: boolean;
  sound_enabled: boolean;
}

/** The display options out of the settings (GET /api/settings's shape). */
export function displayOptionsOf(settings: Record<string, unknown>): DisplayOptionsData {
  return {
    skin: skinOf(settings.skin),
    font_size: fontSizeOf(settings.font_size),
    notifications_enabled: settings.notifications_enabled === true,
    sound_enabled: settings.sound_enabled === true,
  };
}

const SKIN_TEXT: Record<Skin, { labelKey: string; hintKey: string }> = {
  default: { labelKey: "comfort.skinDefault", hintKey: "comfort.skinDefaultHint" },
  slate: { labelKey: "comfort.skinSlate", hintKey: "comfort.skinSlateHint" },
  sepia: { labelKey: "comfort.skinSepia", hintKey: "comfort.skinSepiaHint" },
  contrast: { labelKey: "comfort.skinContrast", hintKey: "comfort.skinContrastHint" },
  ares: { labelKey: "comfort.skinAres", hintKey: "comfort.skinAresHint" },
  mono: { labelKey: "comfort.skinMono", hintKey: "comfort.skinMonoHint" },
  poseidon: { labelKey: "comfort.skinPoseidon", hintKey: "comfort.skinPoseidonHint" },
  sisyphus: { labelKey: "comfort.skinSisyphus", hintKey: "comfort.skinSisyphusHint" },
  charizard: { labelKey: "comfort.skinCharizard", hintKey: "comfort.skinCharizardHint" },
  catppuccin: { labelKey: "comfort.skinCatppuccin", hintKey: "comfort.skinCatppuccinHint" },
  nous: { labelKey: "comfort.skinNous", hintKey: "comfort.skinNousHint" },
};

const SIZE_TEXT: Record<FontSize, string> = {
  small: "comfort.sizeSmall",
  default: "comfort.sizeDefault",
  large: "comfort.sizeLarge",
};

/** The skin and text size pickers (radio cards, like the theme's). */
export function DisplayOptions({ data }: { data: DisplayOptionsData }) {
  return (
    <Section hook="display" title={t("comfort.display")}>
      <fieldset class="cc-choice" data-cc-skin>
        <legend class="cc-choice-legend">{t("comfort.skin")}</legend>
        {SKINS.map((skin) => (
          <label key={skin} class="cc-choice-item" data-skin-option={skin}>
            <input
              type="radio"
              name="skin"
              value={skin}
              data-display-setting="skin"
              checked={data.skin === skin}
            />
            <span class="cc-swatch" data-swatch={`skin-${skin}`} aria-hidden="true" />
            <span class="cc-choice-text">
              <span class="cc-choice-label">{t(SKIN_TEXT[skin].labelKey)}</span>
              <span class="cc-choice-hint">{t(SKIN_TEXT[skin].hintKey)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset class="cc-choice" data-cc-font-size>
        <legend class="cc-choice-legend">{t("comfort.textSize")}</legend>
        {FONT_SIZES.map((size) => (
          <label key={size} class="cc-choice-item" data-font-size-option={size}>
            <input
              type="radio"
              name="font_size"
              value={size}
              data-display-setting="font_size"
              checked={data.font_size === size}
            />
            <span class="cc-size-sample" data-size={size} aria-hidden="true">
              {t("comfort.sizeSample")}
            </span>
            <span class="cc-choice-text">
              <span class="cc-choice-label">{t(SIZE_TEXT[size])}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <StatusLine hook="display" />
    </Section>
  );
}

/** The notifications switch; the browser's permission is asked when it is turned on. */
export function NotifyOption({ data }: { data: DisplayOptionsData }) {
  return (
    <Section hook="notify" title={t("comfort.notifications")}>
      <SwitchField
        checked={data.notifications_enabled}
        label={t("comfort.notifyToggle")}
        hint={t("comfort.notifyHint")}
        hooks={{ "data-display-setting": "notifications_enabled" }}
      />
      <SwitchField
        checked={data.sound_enabled}
        label={t("comfort.soundToggle")}
        hint={t("comfort.soundHint")}
        hooks={{ "data-display-setting": "sound_enabled" }}
      />
      <StatusLine hook="notify" />
    </Section>
  );
}
