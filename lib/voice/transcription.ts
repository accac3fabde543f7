// POST /api/transcribe's work: read the recording from a multipart upload without ever holding
// more than the cap, make sure it is audio (by its bytes), and transcribe it through the
// configured provider (voice_provider.ts). Invariants: the cap holds while the body streams in
// (413 before anything is parsed); a body that is not multipart, or a file that is not audio,
// is a 415; an empty or missing file is a 400. Transcribing is voice_provider.ts's.
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from "../errors.ts";
import { sniffAudio } from "./audio_format.ts";
import { readUploadForm } from "../workspace/uploads.ts";

/** The largest recording taken: OpenAI's own limit for /audio/transcriptions. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const MB = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const tooLarge = (max: number) =>
  new PayloadTooLargeError(
    `The recording is larger than ${MB(max)}, the most that can be transcribed at once; ` +
      `record a shorter one`,
  );

/** What the upload carried. */
export interface AudioUpload {
  audio: Uint8Array;
  type: string;
  /** The language hint (ISO 639-1, e.g. "de"), or null for auto-detect. */
  language: string | null;
}

/** A language hint from the form (`language`: "de", "en-US", …) as ISO 639-1, or null. */
export function languageHint(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const m = /^([a-z]{2})(?:[-_][a-z0-9]{1,8})*$/i.exec(raw.trim());
  return m ? m[1].toLowerCase() : null;
}

/** Read the multipart upload: field `file` (or `audio`), optional `language`. */
export async function readAudioUpload(req: Request, max = MAX_AUDIO_BYTES): Promise<AudioUpload> {
  // The one capped multipart reader (413 while the body streams in), in this route's words.
  const form = await readUploadForm(req, max, {
    notMultipart: () =>
      new UnsupportedMediaTypeError(
        'Send the recording as multipart/form-data with the audio in a field named "file"',
      ),
    tooLarge: () => tooLarge(max),
  });
  const file = form.get("file") ?? form.get("audio");
  if (!(file instanceof File)) {
    throw new ValidationError(
      'No recording in the upload (expected a file field named "file")',
      "file",
    );
  }
  if (file.size > max) throw tooLarge(max);
  if (file.size === 0) throw new ValidationError("The recording is empty", "file");
  const audio = new Uint8Array(await file.arrayBuffer());
  const sniffed = sniffAudio(audio);
  if (!sniffed) {
    throw new UnsupportedMediaTypeError(
      `The upload is not audio that can be transcribed (${file.type || "unknown type"}): ` +
        "send WAV, WebM, Ogg, MP3, MP4/M4A, FLAC or AAC",
    );
  }
  return { audio, type: sniffed, language: languageHint(form.get("language")) };
}
