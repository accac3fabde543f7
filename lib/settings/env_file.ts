// The `.env` file next to config.yaml, where the original Hermes keeps provider API keys
// (OPENROUTER_API_KEY=…). Invariants: a value with a newline or NUL is refused (no line
// injection), the file is written whole and atomically with mode 0600, keys sorted; reading
// never throws (a missing or unreadable file is empty).
import { dirname, join } from "node:path";
import { ValidationError } from "../errors.ts";
import { randomHex } from "../ids.ts";

/** The `.env` beside a config file. */
export function envFilePath(configPath: string): string {
  return join(dirname(configPath), ".env");
}

/** KEY=VALUE lines (comments and blank lines skipped, one pair of quotes stripped). */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || !line.includes("=")) continue;
    const at = line.indexOf("=");
    const key = line.slice(0, at).trim();
    let value = line.slice(at + 1).trim();
    if (value.length >= 2 && value[0] === value.at(-1) && (value[0] === '"' || value[0] === "'")) {
      value = value.slice(1, -1);
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out[key] = value;
  }
  return out;
}

/**
 * The API keys (`*_API_KEY`) of the `.env` beside a config file: where the original and the
 * Hermes CLI keep provider keys, so an existing Hermes home works here as it is. Nothing else is
 * taken from the file (server settings come from the real environment only).
 */
export async function readEnvFileKeys(configPath: string): Promise<Record<string, string>> {
  const all = await readEnvFile(envFilePath(configPath));
  return Object.fromEntries(
    Object.entries(all).filter(([k, v]) => /^[A-Z][A-Z0-9_]*_API_KEY$/.test(k) && v.trim()),
  );
}

/** Set (or, with null, remove) keys in the `.env` file, keeping the others. */
export async function updateEnvFile(
  path: string,
  updates: Record<string, string | null>,
): Promise<void> {
  const current = await readEnvFile(path);
  for (const [key, value] of Object.entries(updates)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new ValidationError(`"${key}" is not an environment variable name`);
    }
    if (value === null) {
      delete current[key];
      continue;
    }
    const clean = value.trim();
    if (/[\r\n\0]/.test(clean)) {
      throw new ValidationError("API key must not contain newline characters", "api_key");
    }
    if (clean) current[key] = clean;
  }
  const lines = Object.keys(current).sort().map((k) => `${k}=${current[k]}`);
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomHex(6)}.tmp`;
  await Deno.writeTextFile(tmp, lines.join("\n") + (lines.length ? "\n" : ""), { mode: 0o600 });
  if (Deno.build.os !== "windows") await Deno.chmod(tmp, 0o600);
  await Deno.rename(tmp, path);
}
