// Which catalog keys the browser can ask for: a page ships only these (lib/i18n/catalog.ts), the
// rest are rendered on the server. Read from the sources the browser bundle was built from: a key
// is kept when its text appears in one of them, or when a literal there is its start (keys built
// as `composer.mode${kind}` or "extensions." + kind). Over-keeping is harmless; a key the browser
// needs but never names literally would be missed, so computed keys must keep a literal prefix.

/** Every quoted or template-head token shaped like a catalog key (`area.name…`, `a11y_sr.x`). */
export function keyTokens(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/["'`]([a-z][A-Za-z0-9_]*\.[A-Za-z0-9_.]*)/g)) out.add(m[1]);
  return out;
}

/** The keys of `catalog` that `sources` (browser bundle inputs) can reach, sorted. */
export function browserKeys(catalog: readonly string[], sources: readonly string[]): string[] {
  const tokens = new Set<string>();
  for (const s of sources) for (const t of keyTokens(s)) tokens.add(t);
  const prefixes = [...tokens].filter((t) => !catalog.includes(t));
  return catalog.filter((k) => tokens.has(k) || prefixes.some((p) => k.startsWith(p))).sort();
}
