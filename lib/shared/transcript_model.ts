// Browser-safe: imports nothing from Deno or the database.
// The transcript's vocabulary in one import: the turn shapes (transcript_turns.ts), stored
// messages folded into turns (transcript_fold.ts) and live runs folded from their events
// (transcript_live.ts). New code may import the concept file it needs directly.
export * from "./transcript_turns.ts";
export * from "./transcript_fold.ts";
export * from "./transcript_live.ts";
