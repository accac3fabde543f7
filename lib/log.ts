// The server log: one line per event on stderr, and the latest lines kept in a bounded ring for
// the Logs panel (GET /api/logs). Invariants: secrets never reach it (every line is redacted
// with the known secret strings before it is written or kept); the ring never grows past
// RECENT_LINES, so logging cannot grow memory.

/** How many recent lines the ring keeps. */
export const RECENT_LINES = 2000;

export type LogLevel = "INFO" | "WARN" | "ERROR";

/** One kept line, already redacted. */
export interface LogLine {
  seq: number;
  time: string;
  level: LogLevel;
  message: string;
  fields?: string;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Register a secret value that must be masked in every later log line. */
  addSecret(secret: string): void;
  /** The kept lines after `afterSeq`, oldest first (redacted when written). */
  recent(afterSeq?: number): LogLine[];
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
  const ring: LogLine[] = [];
  let seq = 0;
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const time = new Date().toISOString();
    const extra = fields ? JSON.stringify(fields) : undefined;
    write(redact(`${time} ${level} ${message}${extra ? " " + extra : ""}`));
    ring.push({
      seq: ++seq,
      time,
      level,
      message: redact(message),
      ...(extra ? { fields: redact(extra) } : {}),
    });
    if (ring.length > RECENT_LINES) ring.splice(0, ring.length - RECENT_LINES);
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
    recent: (afterSeq = 0) => ring.filter((l) => l.seq > afterSeq),
  };
}
