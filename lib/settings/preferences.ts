// The original Hermes WebUI's preference keys: their defaults and what a valid value is.
// Invariants: POST /api/settings stores only keys listed here (or the console's own, in
// settings.ts), each only after its rule accepts it; an unknown key or an invalid value is
// ignored and reported back, never stored and never an error. Browser-safe data, no Deno.

/** How a preference's value is checked (and coerced, like the original: "7" → 7). */
export type PreferenceRule =
  | { kind: "bool" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "int"; min: number; max: number }
  | { kind: "number"; min: number; max: number }
  | { kind: "string"; max: number }
  | { kind: "string_list"; max: number }
  | { kind: "object" };

interface Preference {
  default: unknown;
  rule: PreferenceRule;
}

const bool = (d: boolean): Preference => ({ default: d, rule: { kind: "bool" } });
const oneOf = (d: string, values: readonly string[]): Preference => ({
  default: d,
  rule: { kind: "enum", values },
});
const int = (d: number, min: number, max: number): Preference => ({
  default: d,
  rule: { kind: "int", min, max },
});
const text = (d: string, max = 256): Preference => ({ default: d, rule: { kind: "string", max } });
const list = (): Preference => ({ default: [], rule: { kind: "string_list", max: 100 } });

/** The speech preferences: the original reports which of them were ever saved. */
export const SPEECH_KEYS = [
  "tts_enabled",
  "tts_auto_read",
  "tts_engine",
  "tts_voice",
  "tts_rate",
  "tts_pitch",
  "voice_mode_button",
  "voice_continuous",
  "voice_silence_ms",
] as const;

/** The appearance keys (an appearance-only save changes only these). */
export const APPEARANCE_KEYS = ["theme", "skin", "font_size", "sidebar_density", "rtl"] as const;

export const DEFAULT_BOT_NAME = "Hermes";

/**
 * The original's settings keys with their defaults (api/config.py `_SETTINGS_DEFAULTS`).
 * Keys with no feature here yet are still stored and returned, so its clients round-trip.
 * The console's own keys (theme default "system", send_key, show_thinking, approval timeout,
 * onboarding flag, workspace, keys, password) live in settings.ts.
 */
export const PREFERENCES: Readonly<Record<string, Preference>> = {
  bot_name: text(DEFAULT_BOT_NAME, 64),
  sidebar_density: oneOf("compact", ["compact", "detailed"]),
  pinned_sessions_limit: int(3, 1, 99),
  skin: text("default", 64),
  font_size: oneOf("default", ["small", "default", "large"]),
  rtl: bool(false),
  // "auto" follows the browser (Accept-Language); a locale tag pins one (lib/i18n/locales.ts).
  language: text("auto", 16),
  show_token_usage: bool(false),
  show_quota_chip: bool(false),
  show_conversation_outline: bool(false),
  show_busy_placeholder_hint: bool(false),
  hide_empty_state_suggestions: bool(false),
  hide_empty_state_panel: bool(false),
  new_chat_on_workspace_switch: bool(false),
  show_tps: bool(false),
  fade_text_effect: bool(false),
  show_cli_sessions: bool(false),
  // Scheduled-task sessions in the sidebar's list. The original hides them by default; here they
  // have always been listed (the Tasks chip narrows the list to them), so listing stays the default.
  show_cron_sessions: bool(true),
  sync_to_insights: bool(false),
  check_for_updates: bool(true),
  update_channel: oneOf("stable", ["stable", "beta"]),
  tts_enabled: bool(false),
  tts_auto_read: bool(false),
  tts_engine: text("browser", 64),
  tts_voice: text("", 256),
  tts_rate: { default: 1.0, rule: { kind: "number", min: 0.1, max: 10 } },
  tts_pitch: { default: 1.0, rule: { kind: "number", min: 0, max: 2 } },
  voice_mode_button: bool(false),
  voice_continuous: bool(false),
  voice_silence_ms: int(1800, 200, 60_000),
  // The console's own, for the server voice engines (lib/voice): which configured provider
  // listens and speaks ("" = the active one), its transcription and speech models and the
  // server voice ("" = the provider's default where it has one: whisper-1, tts-1, alloy).
  // `tts_engine` "agent" (the original's name) reads aloud through POST /api/tts.
  voice_provider: text("", 128),
  stt_model: text("", 128),
  tts_model: text("", 128),
  tts_server_voice: text("", 64),
  raw_audio_mode: bool(false),
  session_jump_buttons: bool(false),
  render_user_markdown: bool(false),
  large_text_paste_as_attachment: bool(true),
  session_endless_scroll: bool(false),
  chat_activity_display_mode: text("compact_worklog", 64),
  auto_scroll_follow: bool(true),
  hide_composer_attach: bool(false),
  hide_composer_mic: bool(false),
  hide_composer_yolo: bool(false),
  hide_composer_workspace: bool(false),
  hide_composer_model: bool(false),
  hide_composer_reasoning: bool(false),
  hidden_tabs: list(),
  tab_order: list(),
  composer_control_order: list(),
  sound_enabled: bool(false),
  notifications_enabled: bool(false),
  simplified_tool_calling: bool(true),
  terminal_auto_expand_on_output: bool(false),
  api_redact_enabled: bool(true),
  dashboard_plugins: { default: {}, rule: { kind: "object" } },
  // Re-title the chat from its latest exchange every N user turns ("0": never), as the original.
  auto_title_refresh_every: oneOf("0", ["0", "5", "10", "20"]),
  // What Send does while an answer runs (lib/browser/composer/message_mode.ts). The original
  // defaults to steer; here queue stays the default, as it was before steering existed.
  default_message_mode: oneOf("queue", ["steer", "queue", "interrupt"]),
  auth_disabled_acknowledged: bool(false),
};

/**
 * The original's keys whose feature this console does not have: self-update, dashboard plugins,
 * the CLI's state.db (its sessions and the usage sync), raw audio, the auth-disabled warning and
 * a composer reasoning chip. A valid value is kept as sent, so the original's clients read back
 * what they wrote (its own tests round-trip `raw_audio_mode`), but POST names every such key in
 * `ignored`, because nothing here acts on it, and the Control Center never offers one.
 */
export const INERT_PREFERENCES: readonly string[] = [
  "check_for_updates",
  "update_channel",
  "dashboard_plugins",
  "show_cli_sessions",
  "sync_to_insights",
  "raw_audio_mode",
  "auth_disabled_acknowledged",
  "hide_composer_reasoning",
];

export type Checked = { ok: true; value: unknown } | { ok: false };

const MAX_OBJECT_JSON = 16_384;

/** Check (and coerce) one value against a rule; `{ok:false}` means "ignore it". */
export function checkPreference(rule: PreferenceRule, value: unknown): Checked {
  switch (rule.kind) {
    case "bool":
      return typeof value === "boolean" ? { ok: true, value } : { ok: false };
    case "enum":
      return typeof value === "string" && rule.values.includes(value)
        ? { ok: true, value }
        : { ok: false };
    case "int": {
      const n = typeof value === "string" && /^-?\d+$/.test(value.trim())
        ? Number(value.trim())
        : value;
      return typeof n === "number" && Number.isInteger(n) && n >= rule.min && n <= rule.max
        ? { ok: true, value: n }
        : { ok: false };
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value) && value >= rule.min &&
          value <= rule.max
        ? { ok: true, value }
        : { ok: false };
    case "string":
      return typeof value === "string" && value.length <= rule.max && !/[\0\r\n]/.test(value)
        ? { ok: true, value }
        : { ok: false };
    case "string_list":
      return Array.isArray(value) && value.length <= rule.max &&
          value.every((v) => typeof v === "string" && v.length <= 128)
        ? { ok: true, value }
        : { ok: false };
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value) &&
          JSON.stringify(value).length <= MAX_OBJECT_JSON
        ? { ok: true, value }
        : { ok: false };
  }
}

/** The bot's display name: blank or whitespace means the default, "Hermes". */
export function effectiveBotName(value: unknown): string {
  return typeof value === "string" && value.trim() ? value.trim() : DEFAULT_BOT_NAME;
}
