// Browser-safe: imports nothing from Deno or the database.
// The display preferences the page paints from its first frame: the skin (a palette over the
// theme, static/skins.css) and the text size. Invariant: the server and the browser agree on
// which values exist; anything else reads as "default" (a value the original's clients saved
// that we lack, such as its "graphite" skin, still round-trips through the settings but paints
// the default).

/**
 * The skins static/skins.css defines, each for the dark and the light theme: ours (slate, sepia,
 * contrast) and the original's by its names (ares … nous).
 */
export const SKINS = [
  "default",
  "slate",
  "sepia",
  "contrast",
  "ares",
  "mono",
  "poseidon",
  "sisyphus",
  "charizard",
  "catppuccin",
  "nous",
] as const;
export type Skin = typeof SKINS[number];

/** The `font_size` preference's values (lib/settings/preferences.ts checks them). */
export const FONT_SIZES = ["small", "default", "large"] as const;
export type FontSize = typeof FONT_SIZES[number];

/** The skin to paint for a stored `skin` value (case-insensitive; unknown → "default"). */
export function skinOf(value: unknown): Skin {
  const v = typeof value === "string" ? value.trim().toLowerCase() : "";
  return (SKINS as readonly string[]).includes(v) ? v as Skin : "default";
}

/** The text size to paint for a stored `font_size` value (unknown → "default"). */
export function fontSizeOf(value: unknown): FontSize {
  return (FONT_SIZES as readonly string[]).includes(value as string)
    ? value as FontSize
    : "default";
}
