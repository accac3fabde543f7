// Browser-safe: imports nothing from Deno or the database.
// The URL allowlist for links and images in rendered markdown. Invariant: a URL becomes an
// href/src only if every reading of it a browser could make (entities decoded, tabs/newlines
// and invisible characters removed, any case, percent-decoded) has an allowed scheme or none:
// links http/https/mailto/workspace, images http/https or base64 PNG/JPEG/GIF/WebP data; relative
// URLs and #anchors pass. Everything else (javascript:, vbscript:, data:text/html, file:…)
// is refused and the caller shows the markdown source as text.

/** Where a URL will be used: an `<a href>` or an `<img src>`. */
export type UrlKind = "link" | "image";

/** An accepted URL: the exact string to put (attribute-escaped) in href/src. */
export interface SafeUrl {
  href: string;
  /** Points at another origin (absolute http(s) or protocol-relative `//host`). */
  remote: boolean;
}

// `workspace://path` links open the file in the workspace panel (workspacePathOf() + the page's
// click handler); the browser itself never follows them.
const LINK_SCHEMES = new Set(["http", "https", "mailto", "workspace"]);
const IMAGE_SCHEMES = new Set(["http", "https"]);
const RASTER_DATA = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=]*$/i;

/**
 * Characters a browser drops from a URL (tab, CR, LF anywhere; C0 controls and spaces at the
 * ends) plus everything invisible a reader would not see: removed everywhere before the
 * scheme check, which is stricter than any browser.
 */
const INVISIBLE = new RegExp(
  "[\\s\\u0000-\\u001f\\u007f-\\u00a0\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e" +
    "\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0" +
    "\\ufff0-\\ufff8]",
  "g",
);

const NAMED: Record<string, string> = {
  colon: ":",
  tab: "\t",
  newline: "\n",
  amp: "&",
  lpar: "(",
  rpar: ")",
  sol: "/",
  bsol: "\\",
  period: ".",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
  nbsp: "\u00a0",
  semi: ";",
  num: "#",
  excl: "!",
  percnt: "%",
  equals: "=",
  quest: "?",
};

function decodeEntitiesOnce(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (m, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X"
        ? parseInt(body.slice(2), 16)
        : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

/** Every way the URL could be read, already stripped of invisible characters. */
function readings(url: string): string[] {
  const out = [url.replace(INVISIBLE, "")];
  let s = url;
  for (let i = 0; i < 4; i++) {
    const d = decodeEntitiesOnce(s);
    if (d === s) break;
    s = d;
    out.push(s.replace(INVISIBLE, ""));
  }
  for (const r of [...out]) {
    try {
      const p = decodeURIComponent(r).replace(INVISIBLE, "");
      if (p !== r) out.push(p);
    } catch {
      // Malformed percent escapes: the raw readings are checked already.
    }
  }
  return out;
}

/** `javascript` for `JavaScript:…`, `null` for a relative URL. */
function schemeOf(reading: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(reading);
  return m ? m[1].toLowerCase() : null;
}

/** Percent-encode what a URL may not contain, keeping existing escapes (marked's cleanUrl). */
function encodeUrl(url: string): string | null {
  try {
    return encodeURI(url).replace(/%25/g, "%");
  } catch {
    return null; // lone surrogates
  }
}

/**
 * The URL to emit for a markdown link or image destination, or `null` when it must not
 * become an href/src at all.
 */
export function safeUrl(raw: string, kind: UrlKind): SafeUrl | null {
  const url = raw.trim();
  const all = readings(url);
  const allowed = kind === "link" ? LINK_SCHEMES : IMAGE_SCHEMES;
  let data = false;
  for (const r of all) {
    const scheme = schemeOf(r);
    if (scheme === null || allowed.has(scheme)) continue;
    if (kind === "image" && scheme === "data" && RASTER_DATA.test(r)) {
      data = true;
      continue;
    }
    return null;
  }
  if (data) {
    // Emit the decoded, stripped form: the one the allowlist actually matched.
    const clean = all.find((r) => RASTER_DATA.test(r))!;
    return { href: clean, remote: false };
  }
  const href = encodeUrl(url);
  if (href === null) return null;
  const scheme = schemeOf(href.replace(INVISIBLE, ""));
  if (scheme !== null && !allowed.has(scheme)) return null;
  const stripped = all[0];
  return {
    href,
    remote: scheme === "http" || scheme === "https" || /^[\\/]{2}/.test(stripped),
  };
}

/**
 * The workspace-relative path a `workspace://path` link names (percent-decoded, leading slashes
 * dropped: always relative to the session's workspace), or null for any other URL or a path a
 * person could not have meant (empty, control characters, `..` segments). The server's guard
 * still checks whatever this returns.
 */
export function workspacePathOf(href: string): string | null {
  const m = /^workspace:(?:\/\/)?(.*)$/i.exec(href.trim());
  if (!m) return null;
  let path: string;
  try {
    path = decodeURIComponent(m[1].split(/[?#]/)[0]);
  } catch {
    return null;
  }
  path = path.replace(/^\/+/, "");
  // deno-lint-ignore no-control-regex
  if (path === "" || /[\u0000-\u001f\u007f\\]/.test(path)) return null;
  if (path.split("/").some((p) => p === "..")) return null;
  return path;
}
