// Browser-safe: imports nothing from Deno or the database.
// The transcript's display preferences (lib/settings/preferences.ts keys) as attributes on
// <html>: routes/_app.tsx paints them from the first frame, lib/browser/transcript_display.ts
// follows each save, and CSS and the transcript's scripts read them there. Invariant: a
// preference at its default adds no attribute, so an untouched page looks as it always did.

/** The Activity display modes (the original's `chat_activity_display_mode` values). */
export const ACTIVITY_MODES = [
  "compact_worklog",
  "transparent_stream",
  "hide_all_activity",
] as const;
export type ActivityMode = typeof ACTIVITY_MODES[number];

/** A stored mode, or the default for anything else (the preference is free text). */
export function activityModeOf(v: unknown): ActivityMode {
  return ACTIVITY_MODES.includes(v as ActivityMode) ? v as ActivityMode : "compact_worklog";
}

/** The on/off preferences of this group: key → the <html> attribute present when it is on. */
export const TRANSCRIPT_SWITCHES = {
  show_token_usage: "data-show-token-usage",
  show_tps: "data-show-tps",
  show_conversation_outline: "data-show-outline",
  session_jump_buttons: "data-session-jump",
  render_user_markdown: "data-user-markdown",
  fade_text_effect: "data-fade-text",
  session_endless_scroll: "data-endless-scroll",
  show_busy_placeholder_hint: "data-busy-hint",
  terminal_auto_expand_on_output: "data-terminal-auto-expand",
} as const;
export type TranscriptSwitch = keyof typeof TRANSCRIPT_SWITCHES;

/** Preferences that are on by default: their attribute marks them turned off. */
export const TRANSCRIPT_DEFAULT_ON = {
  auto_scroll_follow: "data-no-auto-follow",
  simplified_tool_calling: "data-expanded-tools",
} as const;
export type TranscriptDefaultOn = keyof typeof TRANSCRIPT_DEFAULT_ON;

/** Every key this group reads (what a settings answer is checked for). */
export const TRANSCRIPT_DISPLAY_KEYS: readonly string[] = [
  ...Object.keys(TRANSCRIPT_SWITCHES),
  ...Object.keys(TRANSCRIPT_DEFAULT_ON),
  "chat_activity_display_mode",
  "default_message_mode",
];

/**
 * The attributes for these preferences, as <html> carries them: each present attribute maps to
 * "" except `data-activity-mode` (a non-default mode) and `data-message-mode` (steer or
 * interrupt: what Send does while an answer runs, worded by the busy hint).
 */
export function transcriptDisplayAttrs(prefs: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, attr] of Object.entries(TRANSCRIPT_SWITCHES)) {
    if (prefs[key] === true) out[attr] = "";
  }
  for (const [key, attr] of Object.entries(TRANSCRIPT_DEFAULT_ON)) {
    if (prefs[key] === false) out[attr] = "";
  }
  const mode = activityModeOf(prefs.chat_activity_display_mode);
  if (mode !== "compact_worklog") out["data-activity-mode"] = mode;
  // Queue is the default (absent); the hint reads the other two from here.
  const send = prefs.default_message_mode;
  if (send === "steer" || send === "interrupt") out["data-message-mode"] = send;
  return out;
}

/** Every attribute transcriptDisplayAttrs() may set (to clear the ones a save turned off). */
export const TRANSCRIPT_DISPLAY_ATTRS: readonly string[] = [
  ...Object.values(TRANSCRIPT_SWITCHES),
  ...Object.values(TRANSCRIPT_DEFAULT_ON),
  "data-activity-mode",
  "data-message-mode",
];
