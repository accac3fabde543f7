// Audio told apart by its first bytes: what an upload really is, whatever its name or claimed
// type says, and whether a provider's "speech" is audio at all. Covers what browsers record
// (WebM/Opus, Ogg/Opus, MP4/AAC, WAV) and what speech APIs answer (MP3, WAV, Ogg, FLAC, AAC).
// Server-only by use, but pure: no Deno, no I/O.

/** The audio containers the voice routes take and give. */
export type AudioType =
  | "audio/wav"
  | "audio/webm"
  | "audio/ogg"
  | "audio/mpeg"
  | "audio/mp4"
  | "audio/flac"
  | "audio/aac";

const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/** The container `bytes` start with, or null when they are not audio this console knows. */
export function sniffAudio(bytes: Uint8Array): AudioType | null {
  const b = bytes;
  if (b.length < 4) return null;
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WAVE")) return "audio/wav";
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "audio/webm";
  if (ascii(b, 0, "OggS")) return "audio/ogg";
  if (ascii(b, 0, "fLaC")) return "audio/flac";
  if (ascii(b, 4, "ftyp")) return "audio/mp4";
  if (ascii(b, 0, "ID3")) return "audio/mpeg";
  // ADTS AAC (sync word, layer 0) before MPEG audio, whose frame sync it also matches.
  if (b[0] === 0xff && (b[1] & 0xf6) === 0xf0) return "audio/aac";
  if (b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0) return "audio/mpeg";
  return null;
}
