// A random 256-bit secret kept in a file of the state dir: created once (0600, createNew so two
// starting processes agree on one), then read back on every start. A corrupt file is replaced
// (what it protected stops working, which is the safe outcome). Used for the login-cookie
// signing secret and the console token.
import { join } from "node:path";
import { randomHex } from "../ids.ts";

const SECRET_RE = /^[0-9a-f]{64}$/;

/** The 64 hex characters stored in `stateDir/fileName` (`what` names it in the error). */
export async function stateSecretHex(
  stateDir: string,
  fileName: string,
  what: string,
): Promise<string> {
  const path = join(stateDir, fileName);
  await Deno.mkdir(stateDir, { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (SECRET_RE.test(text)) {
        if (Deno.build.os !== "windows") await Deno.chmod(path, 0o600).catch(() => {});
        return text;
      }
      await Deno.remove(path).catch(() => {}); // corrupt: replace it
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    try {
      await Deno.writeTextFile(path, randomHex(64) + "\n", { createNew: true, mode: 0o600 });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  }
  throw new Error(`Cannot create ${what} in ${stateDir}`);
}
