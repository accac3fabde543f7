// Credentials masked in API answers (the `api_redact_enabled` setting, on by default, as the
// original's `redact_session_data`): an API key, token or password that reached a conversation
// (pasted by the person, printed by a tool) leaves GET /api/session as `sk-abc…wxyz`, never
// whole. Invariants: pure and deterministic (the same text always masks the same way); only
// strings change, never the shape; an image data URI is left alone (opaque bytes, no text).

/** Keep enough to recognise a long token (first 6, last 4), nothing of a short one. */
function mask(token: string): string {
  return token.length >= 18 ? `${token.slice(0, 6)}...${token.slice(-4)}` : "***";
}

/** Tokens recognised by their vendor prefix. */
const PREFIXED = new RegExp(
  "(?<![A-Za-z0-9_-])(" + [
    "sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}",
    "sk_(?:live|test)_[A-Za-z0-9]{16,}",
    "rk_live_[A-Za-z0-9]{16,}",
    "ghp_[A-Za-z0-9]{20,}",
    "gh[ousr]_[A-Za-z0-9]{20,}",
    "github_pat_[A-Za-z0-9_]{20,}",
    "xox[abprs]-[A-Za-z0-9-]{10,}",
    "AIza[0-9A-Za-z_-]{30,}",
    "hf_[A-Za-z0-9]{20,}",
    "gsk_[A-Za-z0-9]{20,}",
    "pplx-[A-Za-z0-9]{20,}",
    "npm_[A-Za-z0-9]{30,}",
    "glpat-[A-Za-z0-9_-]{20,}",
    "AKIA[0-9A-Z]{16}",
    "eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}",
  ].join("|") + ")",
  "g",
);

/** `Authorization: Bearer <token>` (and Basic, Bot, Token). */
const AUTH_HEADER =
  /(authorization\s*[:=]\s*["']?(?:bearer|basic|bot|token)\s+)([A-Za-z0-9._~+/=-]{8,})/gi;

/** `OPENAI_API_KEY=value`: an environment-style assignment to a secret-named variable. */
const ENV_ASSIGNMENT =
  /\b([A-Z0-9_]*(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)[A-Z0-9_]*\s*=\s*)(["']?)([^\s"'`]{4,})\2/g;

/** `"api_key": "value"`, `password: 'value'`: a quoted value under a secret's usual name. */
const NAMED_VALUE =
  /(["']?\b(?:api_?key|access_token|refresh_token|id_token|auth_token|client_secret|secret_key|password)["']?\s*[:=]\s*)(["'])([^"'\s]{4,})\2/gi;

/** The password in `scheme://user:password@host`. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)@/gi;

const PRIVATE_KEY =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;

/** Cheap test before the patterns run: most text holds nothing that looks like a secret. */
const MAYBE_SECRET =
  /sk[-_]|rk_live|gh[pousr]_|github_pat|xox|AIza|hf_|gsk_|pplx-|npm_|glpat|AKIA|eyJ|authorization|key|token|secret|passw|credential|:\/\/|PRIVATE KEY/i;

/** An assignment with its value masked; a reference (`$KEY`) or a masked value stays. */
function maskValue(m: string, head: string, quote: string, value: string): string {
  if (!/[A-Za-z0-9]/.test(value) || value.startsWith("$") || /\.\.\.|\*{3}/.test(value)) return m;
  return `${head}${quote}${mask(value)}${quote}`;
}

/** Mask the credentials in one text; anything else is returned unchanged. */
export function redactText(text: string): string {
  if (!text || !MAYBE_SECRET.test(text)) return text;
  if (/^data:image\/[a-z+]+;base64,[A-Za-z0-9+/=]+$/.test(text)) return text;
  return text
    .replace(PRIVATE_KEY, "[REDACTED PRIVATE KEY]")
    .replace(AUTH_HEADER, (_m, head: string, token: string) => head + mask(token))
    .replace(URL_USERINFO, (_m, head: string, password: string) => `${head}${mask(password)}@`)
    .replace(ENV_ASSIGNMENT, maskValue)
    .replace(NAMED_VALUE, maskValue)
    .replace(PREFIXED, (token) => mask(token));
}

/** The same value with every string in it masked (objects and arrays copied, not changed). */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactDeep) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
