// Uploaded attachments: `<stateDir>/attachments/<session_id>/<safe name>`. Invariants: the
// size cap is enforced while the body streams in (Content-Length first, then a byte count),
// never after buffering it; stored names are sanitized and unique (`-N` on collision, files
// are created with createNew so nothing is ever overwritten); `is_image` comes from the
// bytes, not from the name or the client's claimed type.
import { extname, join } from "node:path";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { SESSION_ID_RE } from "../ids.ts";
import { mimeForName, sniffImage } from "./mime.ts";
import { resolveInWorkspace } from "./workspace_paths.ts";

/** Multipart framing (boundaries, part headers, the session_id field) allowed over the cap. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const MAX_FILENAME_CHARS = 200;

export interface StoredUpload {
  filename: string;
  /** Absolute path of the stored file (what chat/start `attachments` refer to). */
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
}

/** The folder holding a session's attachments (the id is checked: it becomes a path). */
export function attachmentsDir(stateDir: string, sessionId: string): string {
  if (!SESSION_ID_RE.test(sessionId)) throw new NotFoundError(`Session "${sessionId}" not found`);
  return join(stateDir, "attachments", sessionId);
}

/**
 * A safe file name: the last path segment only, `[^\w.-]` → `_`, no leading dots or dashes
 * (no hidden files, no `-rf` surprises for shell tools), at most 200 characters with the
 * extension kept, never empty.
 */
export function sanitizeFilename(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  let safe = last.normalize("NFC").replace(/[^\w.-]/g, "_").replace(/^[.-]+/, "");
  if (safe.length > MAX_FILENAME_CHARS) {
    const ext = extname(safe).slice(0, 20);
    safe = safe.slice(0, MAX_FILENAME_CHARS - ext.length) + ext;
  }
  return safe === "" ? "upload" : safe;
}

/** The session an upload names: its form field, else `?session_id=`; missing is a 400. */
export function uploadSessionId(form: FormData, url: URL): string {
  const sid = form.get("session_id") ?? url.searchParams.get("session_id");
  if (typeof sid !== "string" || sid === "") {
    throw new ValidationError('Missing required field "session_id"', "session_id");
  }
  return sid;
}

/** What a caller says instead of the file upload's own wording (the voice routes: 415, "recording"). */
export interface UploadFormErrors {
  notMultipart?: () => Error;
  tooLarge?: () => Error;
}

/**
 * Parse a multipart upload without ever holding more than `maxFileBytes` + framing: a larger
 * Content-Length is refused at once, and the stream is cut off when its byte count passes
 * the limit (413). Malformed bodies are a 400.
 */
export async function readUploadForm(
  req: Request,
  maxFileBytes: number,
  errors: UploadFormErrors = {},
): Promise<FormData> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;\s*boundary=/i.test(type)) {
    throw errors.notMultipart?.() ??
      new ValidationError('Expected a multipart/form-data body with a "file" field');
  }
  const limit = maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  const tooLarge = () =>
    errors.tooLarge?.() ??
      new PayloadTooLargeError(
        `Upload is larger than the limit of ${formatMb(maxFileBytes)} (HERMES_WEBUI_MAX_UPLOAD_MB)`,
      );
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) throw new ValidationError('No file in the upload (expected a field named "file")');
  let total = 0;
  let overflowed = false;
  const counted = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) {
          overflowed = true;
          controller.error(tooLarge());
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(counted, { headers: { "content-type": type } }).formData();
  } catch (err) {
    if (overflowed) throw tooLarge();
    throw new ValidationError(`Malformed multipart body: ${(err as Error).message}`, undefined, {
      cause: err,
    });
  }
}

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/**
 * Store `file` in the session's attachments folder under a sanitized, unused name. The file is
 * created exclusively (createNew), so a concurrent upload of the same name gets `-1`, `-2`, ….
 */
export async function storeUpload(
  stateDir: string,
  sessionId: string,
  file: File,
  maxFileBytes: number,
): Promise<StoredUpload> {
  if (file.size > maxFileBytes) {
    throw new PayloadTooLargeError(
      `"${file.name}" is ${file.size} bytes; the upload limit is ${formatMb(maxFileBytes)}`,
    );
  }
  const dir = attachmentsDir(stateDir, sessionId);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const safe = sanitizeFilename(file.name);
  const ext = extname(safe);
  const stem = ext ? safe.slice(0, -ext.length) : safe;
  let handle: Deno.FsFile | null = null;
  let name = safe;
  for (let n = 0; n < 10_000 && !handle; n++) {
    const suffix = `-${n}${ext}`;
    name = n === 0 ? safe : stem.slice(0, MAX_FILENAME_CHARS - suffix.length) + suffix;
    try {
      handle = await Deno.open(join(dir, name), { write: true, createNew: true, mode: 0o600 });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  }
  if (!handle) throw new ValidationError(`Too many attachments named "${safe}"`);
  const path = join(dir, name);
  try {
    await file.stream().pipeTo(handle.writable); // closes the handle
  } catch (err) {
    try {
      handle.close();
    } catch { /* already closed */ }
    await Deno.remove(path).catch(() => {});
    throw err;
  }
  const sniffed = sniffImage(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
  return {
    filename: name,
    path,
    size: file.size,
    mime: sniffed ?? mimeForName(name),
    is_image: sniffed !== null,
  };
}

/**
 * Resolve an attachment reference (a stored file name, or the absolute `path` an upload
 * returned) to its real path inside the session's attachments folder; anything else → 404.
 * The engine uses this before reading an attachment named in chat/start.
 */
export async function resolveAttachment(
  stateDir: string,
  sessionId: string,
  ref: string,
): Promise<string> {
  const dir = attachmentsDir(stateDir, sessionId);
  const prefix = dir + "/";
  const rel = ref.startsWith(prefix) ? ref.slice(prefix.length) : ref;
  if (rel.includes("/")) throw new NotFoundError(`Attachment "${ref}" not found`);
  try {
    return await resolveInWorkspace(dir, rel, { mustExist: true });
  } catch {
    throw new NotFoundError(`Attachment "${ref}" not found`);
  }
}
