// Secrets shown to people: API keys and tokens are only ever displayed masked (`sk-…abcd`).
// Invariants: a masked value never contains more than the last 4 characters of the secret
// (none for short secrets), and a masked value written back is recognised so the stored
// secret is kept instead of being replaced by its own mask.

/** The character that marks an elided middle; never part of a real key. */
const ELLIPSIS = "…";
const SHORT_MASK = "••••••••";

/**
 * Mask a secret for display: a short, non-secret prefix (like `sk-`), an ellipsis and the
 * last four characters, so a person can tell keys apart without the key being revealed.
 * Secrets shorter than 12 characters are masked entirely (four characters of an 8-character
 * secret would give away too much). Empty or missing values stay empty.
 */
export function maskSecret(value: string | null | undefined): string {
  if (!value) return "";
  const chars = Array.from(value);
  if (chars.length < 12) return SHORT_MASK;
  // A vendor prefix such as `sk-`, `sk-ant-`, `gsk_`: letters up to the first separator.
  const prefixMatch = value.match(/^[A-Za-z]{1,4}[-_](?:[A-Za-z]{1,4}[-_])?/);
  const prefix = prefixMatch && prefixMatch[0].length <= chars.length - 8 ? prefixMatch[0] : "";
  return `${prefix}${ELLIPSIS}${chars.slice(-4).join("")}`;
}

/**
 * True when `value` is a mask produced by `maskSecret` (so a settings form that echoes the
 * masked key back does not overwrite the real one). Real keys never contain `…` or `•`.
 */
export function isMaskedSecret(value: unknown): boolean {
  if (typeof value !== "string" || value === "") return false;
  if (value === SHORT_MASK) return true;
  return /^[A-Za-z_-]{0,10}…[^\s…]{0,4}$/u.test(value);
}

/**
 * Remove every occurrence of each secret from `text` (longest first, so a key that contains
 * another secret is removed whole). For log lines and error messages built from foreign text.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const list = [...secrets].filter((s) => s && s.length >= 4).sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of list) out = out.split(s).join(maskSecret(s) || "***");
  return out;
}
