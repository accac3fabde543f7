// A workspace folder as a zip, streamed: files are read in chunks from fds opened beneath the
// workspace root and deflated as the client pulls, so memory stays flat whatever the folder's
// size. Invariants: symlinks are never followed (a link is left out), protected paths never go
// in, and the archive stays inside the plain zip format's limits (65,000 entries, < 4 GiB); past
// them the rest is left out and a note saying so is the last entry.
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { join } from "node:path";
import { ValidationError } from "../errors.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import { openWorkspaceDir } from "./file_ops.ts";
import {
  closeFd,
  lstatAt,
  O,
  openBeneath,
  readAt,
  readDirFd,
  SafeFsError,
} from "../sandbox/safe_fs.ts";

export const ZIP_MAX_ENTRIES = 65_000;
export const ZIP_MAX_BYTES = 4_000_000_000;
const CHUNK = 256 * 1024;
/** Already-compressed types are stored, not deflated again (CPU for nothing). */
const STORED = /\.(zip|gz|tgz|bz2|xz|zst|7z|rar|png|jpe?g|gif|webp|mp[34]|m4a|mov|webm|pdf)$/i;

/** The folder's zip name: its last segment, or "workspace" for the root. */
export function zipName(rel: string, root: string): string {
  const last = (rel === "." ? root : rel).split("/").filter(Boolean).at(-1) ?? "workspace";
  return `${last}.zip`;
}

/**
 * Open the folder `rel` and return a byte stream of its zip (pulled: a slow client slows the
 * reading). The folder is checked before anything is sent, so a bad path is a clean 404/400.
 */
export async function zipFolderStream(
  workspace: string,
  rel: string,
  protect?: ProtectedPathsConfig,
): Promise<{ name: string; stream: ReadableStream<Uint8Array> }> {
  const held = await openWorkspaceDir(workspace, rel, protect);
  const secrets = protect ? await realSecretPaths(protect) : [];
  const name = zipName(held.rel, held.root);
  const queue: Uint8Array[] = [];
  let done = false;
  let failed: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failed = err;
    else queue.push(chunk);
    if (final) done = true;
  });
  let entries = 0;
  let bytes = 0;
  let truncated = false;

  async function* walk(dirFd: number, real: string, prefix: string): AsyncGenerator<void> {
    let list;
    try {
      list = readDirFd(dirFd, ZIP_MAX_ENTRIES + 1);
    } catch {
      return;
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      if (truncated) return;
      const full = join(real, e.name);
      if (isProtectedPath(full, secrets)) continue;
      let st;
      try {
        st = lstatAt(dirFd, e.name);
      } catch {
        continue;
      }
      if (st.type === "symlink" || st.type === "other") continue;
      if (++entries > ZIP_MAX_ENTRIES || bytes + st.size > ZIP_MAX_BYTES) {
        truncated = true;
        return;
      }
      const path = prefix + e.name;
      let fd = -1;
      try {
        fd = openBeneath(
          dirFd,
          e.name,
          st.type === "dir" ? O.RDONLY | O.DIRECTORY : O.RDONLY | O.NONBLOCK,
          { noSymlinks: true },
        );
      } catch {
        continue;
      }
      try {
        if (st.type === "dir") {
          const d = new ZipPassThrough(path + "/");
          zip.add(d);
          d.push(new Uint8Array(0), true);
          yield;
          yield* walk(fd, full, path + "/");
          continue;
        }
        const f = STORED.test(e.name) ? new ZipPassThrough(path) : new ZipDeflate(path, {
          level: 1,
        });
        f.mtime = st.mtimeMs ?? Date.now();
        zip.add(f);
        let offset = 0;
        while (true) {
          const buf = new Uint8Array(CHUNK);
          let n = 0;
          try {
            n = readAt(fd, buf, offset);
          } catch (err) {
            if (!(err instanceof SafeFsError)) throw err;
          }
          // Stop at the size seen when listed: a file growing while zipped must not blow the cap.
          if (offset + n > st.size) n = Math.max(0, st.size - offset);
          offset += n;
          const last = n === 0 || offset >= st.size;
          f.push(buf.subarray(0, n), last);
          yield;
          if (last) break;
        }
        bytes += offset;
      } finally {
        closeFd(fd);
      }
    }
  }

  const gen = (async function* () {
    try {
      for await (const _ of walk(held.fd, held.real, "")) {
        while (queue.length) yield queue.shift()!;
        if (failed) throw failed;
      }
      if (truncated) {
        const note = new ZipPassThrough("_download_truncated.txt");
        zip.add(note);
        note.push(
          new TextEncoder().encode(
            `This download stopped at ${ZIP_MAX_ENTRIES.toLocaleString("en-US")} entries or ` +
              `${(ZIP_MAX_BYTES / 1e9).toFixed(0)} GB; download subfolders separately.\n`,
          ),
          true,
        );
      }
      zip.end();
      while (queue.length) yield queue.shift()!;
      if (failed) throw failed;
      if (!done) throw new ValidationError("zip did not finish");
    } finally {
      held.close();
    }
  })();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: end } = await gen.next();
        if (end) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await gen.return(undefined);
    },
  });
  return { name, stream };
}
