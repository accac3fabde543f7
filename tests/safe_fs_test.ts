// safe_fs: opens beneath a directory fd never leave it — `..`, absolute and climbing symlinks
// are refused by the kernel (openat2) or, on old kernels, by refusing every symlink.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import {
  closeFd,
  fdPath,
  findLibc,
  initSafeFs,
  O,
  openBeneath,
  openRootDir,
  readDirFd,
  readFd,
  SafeFsError,
  useOpenat2ForTests,
} from "../lib/sandbox/safe_fs.ts";

async function tree() {
  const base = await Deno.realPath(await Deno.makeTempDir());
  const ws = join(base, "ws");
  await Deno.mkdir(join(ws, "d"), { recursive: true });
  await Deno.writeTextFile(join(ws, "d", "f.txt"), "inside");
  await Deno.writeTextFile(join(base, "secret.txt"), "outside");
  await Deno.symlink("d/f.txt", join(ws, "in-link"));
  await Deno.symlink(join(base, "secret.txt"), join(ws, "abs-link"));
  await Deno.symlink("../secret.txt", join(ws, "up-link"));
  await Deno.writeTextFile(join(ws, "d", "new\nline ü.txt"), "");
  return { base, ws };
}

const code = (fn: () => unknown) => {
  try {
    fn();
    return "opened";
  } catch (err) {
    return err instanceof SafeFsError ? err.code : String(err);
  }
};

for (const openat2 of [true, false]) {
  Deno.test(`openBeneath() never leaves the directory (${openat2 ? "openat2" : "per-component"})`, async () => {
    initSafeFs(findLibc()!);
    useOpenat2ForTests(openat2);
    const { base, ws } = await tree();
    const root = openRootDir(ws);
    try {
      const fd = openBeneath(root, "d/f.txt", O.RDONLY);
      strictEqual(new TextDecoder().decode(readFd(fd, 100)), "inside");
      strictEqual(fdPath(fd), join(ws, "d", "f.txt"));
      closeFd(fd);
      for (
        const rel of ["../secret.txt", "d/../../secret.txt", "abs-link", "up-link", "/etc/passwd"]
      ) {
        const c = code(() => openBeneath(root, rel, O.RDONLY));
        strictEqual(["EXDEV", "ELOOP"].includes(c), true, `${rel}: ${c}`);
      }
      // A link that stays inside is followed with openat2, refused by the fallback.
      strictEqual(
        code(() => closeFd(openBeneath(root, "in-link", O.RDONLY))),
        openat2 ? "opened" : "ELOOP",
      );
      // noSymlinks: the walk's mode, where no link on the way is followed.
      closeFd(openBeneath(root, "d/f.txt", O.RDONLY, { noSymlinks: true }));
      throws(() => openBeneath(root, "in-link", O.RDONLY, { noSymlinks: true }), SafeFsError);
      const d = openBeneath(root, "d", O.RDONLY | O.DIRECTORY);
      deepStrictEqual(readDirFd(d).map((e) => `${e.name}:${e.type}`).sort(), [
        "f.txt:file",
        "new\nline ü.txt:file",
      ]);
      closeFd(d);
    } finally {
      useOpenat2ForTests(true);
      closeFd(root);
      await Deno.remove(base, { recursive: true });
    }
  });
}
