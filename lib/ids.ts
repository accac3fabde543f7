// Id and clock primitives. The engine and concept files take these as parameters
// (never global stubs) so tests can make time and ids deterministic.

/** Random lowercase hex of `chars` characters, from the platform CSPRNG. */
export function randomHex(chars: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(chars / 2)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, chars);
}

/** Session and project ids: 12 lowercase hex chars (API.md). */
export const newSessionId = (): string => randomHex(12);
/** Stream ids: 32 lowercase hex chars (API.md). */
export const newStreamId = (): string => randomHex(32);

export const SESSION_ID_RE = /^[0-9a-f]{12}$/;
export const STREAM_ID_RE = /^[0-9a-f]{32}$/;

/** Epoch seconds as a float, the API's unit of time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now() / 1000;
