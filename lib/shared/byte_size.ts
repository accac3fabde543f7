// Browser-safe: imports nothing from Deno or the database.
// The one way sizes are written for people, on both sides (the panel, the composer, the
// server's size-limit messages): binary units B/KB/MB/GB, one decimal under 10, none above.

/** `512` → "512 B", `1536` → "1.5 KB", `20971520` → "20 MB". Empty for nonsense input. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) (v /= 1024, i++);
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
