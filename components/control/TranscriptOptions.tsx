// Control Center › Appearance › Conversation display: how answers and their Activity show (the
// original's Activity display modes, token and speed badges, the outline, jump buttons, user
// messages as markdown, fading text, following the end, endless scrolling, the busy hint,
// tool cards opened, terminal output opening its card). Each change is painted at once and
// saved by lib/browser/control/transcript_options_panel.ts; the page follows it live
// (lib/browser/transcript_display.ts) and paints it from the first frame after a reload.
import {
  ACTIVITY_MODES,
  type ActivityMode,
  activityModeOf,
  TRANSCRIPT_DEFAULT_ON,
  TRANSCRIPT_SWITCHES,
} from "../../lib/shared/transcript_display.ts";
import { t } from "../../lib/i18n/t.ts";
import { Section, StatusLine, SwitchField } from "./parts.tsx";

type SwitchKey = keyof typeof TRANSCRIPT_SWITCHES | keyof typeof TRANSCRIPT_DEFAULT_ON;

export interface TranscriptOptionsData {
  mode: ActivityMode;
  switches: Record<SwitchKey, boolean>;
}

/** The switches in the order the section lists them, with their catalog keys. */
const SWITCHES: Array<{ key: SwitchKey; labelKey: string; hintKey: string }> = [
  { key: "show_token_usage", labelKey: "tdisplay.tokenUsage", hintKey: "tdisplay.tokenUsageHint" },
  { key: "show_tps", labelKey: "tdisplay.tps", hintKey: "tdisplay.tpsHint" },
  {
    key: "show_conversation_outline",
    labelKey: "tdisplay.outline",
    hintKey: "tdisplay.outlineHint",
  },
  {
    key: "session_jump_buttons",
    labelKey: "tdisplay.jumpButtons",
    hintKey: "tdisplay.jumpButtonsHint",
  },
  {
    key: "render_user_markdown",
    labelKey: "tdisplay.userMarkdown",
    hintKey: "tdisplay.userMarkdownHint",
  },
  { key: "fade_text_effect", labelKey: "tdisplay.fadeText", hintKey: "tdisplay.fadeTextHint" },
  {
    key: "auto_scroll_follow",
    labelKey: "tdisplay.autoFollow",
    hintKey: "tdisplay.autoFollowHint",
  },
  { key: "session_endless_scroll", labelKey: "tdisplay.endless", hintKey: "tdisplay.endlessHint" },
  {
    key: "show_busy_placeholder_hint",
    labelKey: "tdisplay.busyHint",
    hintKey: "tdisplay.busyHintHint",
  },
  {
    key: "simplified_tool_calling",
    labelKey: "tdisplay.compactTools",
    hintKey: "tdisplay.compactToolsHint",
  },
  {
    key: "terminal_auto_expand_on_output",
    labelKey: "tdisplay.terminalExpand",
    hintKey: "tdisplay.terminalExpandHint",
  },
];

const MODE_TEXT: Record<ActivityMode, { labelKey: string; hintKey: string }> = {
  compact_worklog: { labelKey: "tdisplay.modeCompact", hintKey: "tdisplay.modeCompactHint" },
  transparent_stream: {
    labelKey: "tdisplay.modeTransparent",
    hintKey: "tdisplay.modeTransparentHint",
  },
  hide_all_activity: { labelKey: "tdisplay.modeHidden", hintKey: "tdisplay.modeHiddenHint" },
};

/** This section's values out of the settings (GET /api/settings's shape; missing = default). */
export function transcriptOptionsOf(settings: Record<string, unknown>): TranscriptOptionsData {
  const switches = {} as Record<SwitchKey, boolean>;
  for (const key of Object.keys(TRANSCRIPT_SWITCHES) as SwitchKey[]) {
    switches[key] = settings[key] === true;
  }
  for (const key of Object.keys(TRANSCRIPT_DEFAULT_ON) as SwitchKey[]) {
    switches[key] = settings[key] !== false;
  }
  return { mode: activityModeOf(settings.chat_activity_display_mode), switches };
}

export function TranscriptOptions({ data }: { data: TranscriptOptionsData }) {
  return (
    <Section hook="transcript-display" title={t("tdisplay.section")}>
      <fieldset class="cc-choice" data-cc-activity-mode>
        <legend class="cc-choice-legend">{t("tdisplay.activityMode")}</legend>
        {ACTIVITY_MODES.map((mode) => (
          <label key={mode} class="cc-choice-item" data-activity-mode-option={mode}>
            <input
              type="radio"
              name="chat_activity_display_mode"
              value={mode}
              data-transcript-setting="chat_activity_display_mode"
              checked={data.mode === mode}
            />
            <span class="cc-choice-text">
              <span class="cc-choice-label">{t(MODE_TEXT[mode].labelKey)}</span>
              <span class="cc-choice-hint">{t(MODE_TEXT[mode].hintKey)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div class="tx-toggles">
        {SWITCHES.map((s) => (
          <SwitchField
            key={s.key}
            checked={data.switches[s.key]}
            label={t(s.labelKey)}
            hint={t(s.hintKey)}
            hooks={{ "data-transcript-setting": s.key }}
          />
        ))}
      </div>
      <StatusLine hook="transcript-display" />
    </Section>
  );
}
