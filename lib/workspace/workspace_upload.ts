// Uploads into a workspace folder (the panel's drag-drop), as opposed to chat attachments
// (uploads.ts). Invariants: the body is capped while it streams (readUploadForm); names are
// sanitized and never overwrite (`-N` on collision, O_CREAT|O_EXCL beneath a held folder fd);
// the target folder must exist inside the workspace and not be protected.
import { extname } from "node:path";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import { join } from "node:path";
import { openWorkspaceDir } from "./file_ops.ts";
import { MAX_FILENAME_CHARS, sanitizeFilename } from "./uploads.ts";
import { mimeForName } from "./mime.ts";
import { formatBytes } from "../shared/byte_size.ts";
import { closeFd, O, openBeneath, SafeFsError, unlinkAt, writeFdAll } from "../sandbox/safe_fs.ts";

export interface WorkspaceUploadResult {
  filename: string;
  /** Workspace-relative path of the stored file. */
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
  extracted: false;
}

/** Store each file of `files` in the folder `dir` of the workspace under an unused name. */
export async function storeWorkspaceUploads(
  workspace: string,
  dir: string,
  files: File[],
  maxBytes: number,
  protect?: ProtectedPathsConfig,
): Promise<WorkspaceUploadResult[]> {
  if (files.length === 0) {
    throw new ValidationError('No file in the upload (expected a field named "file")', "file");
  }
  // The form's cap allows framing on top; the files themselves hold at most the limit, in all.
  const total = files.reduce((a, f) => a + f.size, 0);
  if (total > maxBytes) {
    throw new PayloadTooLargeError(
      `The upload is ${formatBytes(total)}; the limit is ${formatBytes(maxBytes)} ` +
        "(HERMES_WEBUI_MAX_UPLOAD_MB)",
    );
  }
  const held = await openWorkspaceDir(workspace, dir || ".", protect);
  const secrets = protect ? await realSecretPaths(protect) : [];
  const out: WorkspaceUploadResult[] = [];
  try {
    for (const file of files) {
      const safe = sanitizeFilename(file.name);
      const ext = extname(safe);
      const stem = ext ? safe.slice(0, -ext.length) : safe;
      let fd = -1;
      let name = safe;
      for (let n = 0; n < 1000 && fd === -1; n++) {
        const suffix = `-${n}${ext}`;
        name = n === 0 ? safe : stem.slice(0, MAX_FILENAME_CHARS - suffix.length) + suffix;
        // A protected path that does not exist yet (config.yaml beside the state) stays absent.
        if (isProtectedPath(join(held.real, name), secrets)) continue;
        try {
          fd = openBeneath(held.fd, name, O.WRONLY | O.CREAT | O.EXCL, {
            mode: 0o644,
            noSymlinks: true,
          });
        } catch (err) {
          if (!(err instanceof SafeFsError) || err.code !== "EEXIST") throw err;
        }
      }
      if (fd === -1) throw new ValidationError(`Too many uploads named "${safe}"`);
      try {
        writeFdAll(fd, new Uint8Array(await file.arrayBuffer()));
      } catch (err) {
        closeFd(fd);
        fd = -1;
        try {
          unlinkAt(held.fd, name);
        } catch { /* already gone */ }
        throw err;
      } finally {
        if (fd !== -1) closeFd(fd);
      }
      const mime = mimeForName(name);
      out.push({
        filename: name,
        path: held.rel === "." ? name : `${held.rel}/${name}`,
        size: file.size,
        mime,
        is_image: mime.startsWith("image/"),
        extracted: false,
      });
    }
  } finally {
    held.close();
  }
  return out;
}
