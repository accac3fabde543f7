// The server log: one line per event on stderr. Invariant: secrets never reach it; callers
// pass values through `redact` (configured with the known secret strings) before logging.

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Register a secret value that must be masked in every later log line. */
  addSecret(secret: string): void;
}

/** A logger writing to `write` (stderr by default); `quiet` drops info lines (tests). */
export function createLogger(
  opts: { quiet?: boolean; write?: (line: string) => void } = {},
): Logger {
  const secrets = new Set<string>();
  const write = opts.write ?? ((line: string) => console.error(line));
  const redact = (text: string) => {
    let out = text;
    for (const s of secrets) out = out.split(s).join("***");
    return out;
  };
  const emit = (level: string, message: string, fields?: Record<string, unknown>) => {
    const extra = fields ? " " + JSON.stringify(fields) : "";
    write(redact(`${new Date().toISOString()} ${level} ${message}${extra}`));
  };
  return {
    info: (m, f) => {
      if (!opts.quiet) emit("INFO", m, f);
    },
    warn: (m, f) => emit("WARN", m, f),
    error: (m, f) => emit("ERROR", m, f),
    addSecret: (s) => {
      if (s && s.length >= 4) secrets.add(s);
    },
  };
}
