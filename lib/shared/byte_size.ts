// Browser-safe: imports nothing from Deno or the database.
// The one way sizes are written for people, on both sides (the panel, the composer, the
// server's size-limit messages): binary units B/KB/MB/GB, one decimal under 10, none above.
// The number is the active locale's (lib/i18n), the unit a message (`workspace.byteSize`); a
// server process that never loaded the catalog (a unit test of lib/workspace) writes English.
import { formatNumber, hasMessage, t } from "../i18n/t.ts";

const UNITS = ["KB", "MB", "GB", "TB"] as const;

const label = (size: string, unit: string) =>
  hasMessage("workspace.byteSize") ? t("workspace.byteSize", { size, unit }) : `${size} ${unit}`;

/** `512` → "512 B", `1536` → "1.5 KB", `20971520` → "20 MB". Empty for nonsense input. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "";
  if (n < 1024) {
    return label(formatNumber(n, { useGrouping: false }), "B");
  }
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) (v /= 1024, i++);
  const digits = v < 10 ? 1 : 0;
  const size = formatNumber(v, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
  return label(size, UNITS[i]);
}
