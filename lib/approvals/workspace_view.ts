// What the command policy may know of the workspace's files: whether a path exists, when its
// status last changed, a directory's names and a small file's text. The policy is synchronous
// and pure, so it reads a WorkspaceView; `prefetchedView` answers from what was fetched from
// disk, records what it did not know yet, and is fetched again until nothing is missing.
// Invariants: paths are relative to the workspace and resolved as the kernel would (symlinks,
// `..`); anything resolving outside the workspace, or that cannot be read, is `undefined` —
// unknown — never a guess, and the policy asks about what is unknown.
import { dirname } from "node:path";

/** A path's state: its latest possible status-change time (ms) and whether it is a directory. */
export interface PathState {
  changedAt: number;
  isDirectory: boolean;
}

/**
 * The policy's view of the workspace. Each answer is `null` when the path does not exist and
 * `undefined` when it cannot be known (outside the workspace, unreadable, not fetched yet).
 */
export interface WorkspaceView {
  stat(path: string): PathState | null | undefined;
  list(dir: string): readonly string[] | null | undefined;
  /** The text of a small file (git's config, a `.git` file naming the repository). */
  read(path: string): string | null | undefined;
}

type Op = "stat" | "list" | "read";
type Answer = PathState | readonly string[] | string | null | undefined;

/** The asynchronous source a prefetched view fetches from (the disk, in production). */
export interface WorkspaceReader {
  stat(path: string): Promise<PathState | null | undefined>;
  list(dir: string): Promise<readonly string[] | null | undefined>;
  read(path: string): Promise<string | null | undefined>;
}

/** Directory listings longer than this are unknown (the policy then asks). */
const MAX_LIST = 4096;
/** Files read for the policy (git config, .git files) are small; larger ones are unknown. */
const MAX_READ_BYTES = 64 * 1024;
/** Lookups one command line may cause; past this, answers are unknown. */
const MAX_LOOKUPS = 512;

/**
 * Read the workspace at `root` (a real path) from disk. Status-change times are Deno's `ctime`,
 * which a process cannot set back (unlike mtime with `touch -d`); Deno reports it in whole
 * seconds, so the latest moment in that second is returned.
 */
export function diskReader(root: string): WorkspaceReader {
  const inside = (p: string) => p === root || p.startsWith(root + "/");
  /** The real path of `rel`; null when it does not exist; undefined when outside or unsure. */
  const resolve = async (rel: string): Promise<string | null | undefined> => {
    if (rel.startsWith("/") || rel.includes("\0")) return undefined;
    const full = rel === "." ? root : `${root}/${rel}`;
    try {
      const real = await Deno.realPath(full);
      return inside(real) ? real : undefined;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) return undefined;
    }
    // Missing: a dangling symlink points somewhere (unknown); otherwise its directory must be
    // inside the workspace for the answer "it does not exist here" to mean anything.
    if (await Deno.lstat(full).then(() => true, () => false)) return undefined;
    try {
      return inside(await Deno.realPath(dirname(full))) ? null : undefined;
    } catch (err) {
      return err instanceof Deno.errors.NotFound ? null : undefined;
    }
  };
  return {
    async stat(rel) {
      const real = await resolve(rel);
      if (typeof real !== "string") return real;
      try {
        const info = await Deno.stat(real);
        if (!info.ctime) return undefined;
        const ms = info.ctime.getTime();
        return { changedAt: ms % 1000 === 0 ? ms + 999 : ms, isDirectory: info.isDirectory };
      } catch {
        return undefined;
      }
    },
    async list(rel) {
      const real = await resolve(rel);
      if (typeof real !== "string") return real;
      try {
        const names: string[] = [];
        for await (const entry of Deno.readDir(real)) {
          if (names.push(entry.name) > MAX_LIST) return undefined;
        }
        return names.sort();
      } catch {
        return undefined;
      }
    },
    async read(rel) {
      const real = await resolve(rel);
      if (typeof real !== "string") return real;
      try {
        const info = await Deno.stat(real);
        if (!info.isFile || info.size > MAX_READ_BYTES) return undefined;
        return await Deno.readTextFile(real);
      } catch {
        return undefined;
      }
    },
  };
}

/** A view over answers fetched so far, plus the means to fetch what it was asked but lacked. */
export interface PrefetchedView extends WorkspaceView {
  /** Whether the last judgement asked something not fetched yet. */
  missed(): boolean;
  /** Fetch every missed answer; lookups past the budget stay unknown. */
  fetchMissed(): Promise<void>;
}

/** A WorkspaceView answering from `reader`'s results, fetched in rounds (see the file header). */
export function prefetchedView(reader: WorkspaceReader): PrefetchedView {
  const answers = new Map<string, Answer>();
  const missing = new Map<string, [Op, string]>();
  const ask = (op: Op, path: string): Answer => {
    const key = `${op}\0${path}`;
    if (answers.has(key)) return answers.get(key);
    if (answers.size + missing.size < MAX_LOOKUPS) missing.set(key, [op, path]);
    return undefined;
  };
  return {
    stat: (p) => ask("stat", p) as PathState | null | undefined,
    list: (p) => ask("list", p) as readonly string[] | null | undefined,
    read: (p) => ask("read", p) as string | null | undefined,
    missed: () => missing.size > 0,
    async fetchMissed() {
      const batch = [...missing];
      missing.clear();
      const got = await Promise.all(batch.map(([, [op, path]]) => reader[op](path)));
      batch.forEach(([key], i) => answers.set(key, got[i]));
    },
  };
}
