// The agent's long-term memory: MEMORY.md (what it learned) and USER.md (who the user is) in
// the state dir, as `- ` bullet entries. Invariants: the prompt gets at most PROMPT_BUDGET
// characters of each (cut with a note); the memory tool keeps each file within that budget;
// edits to one file are serialized in this process and written atomically.
import { join } from "node:path";
import { NotFoundError, ValidationError } from "../errors.ts";

export type MemorySection = "memory" | "user";
export const MEMORY_SECTIONS: readonly MemorySection[] = ["memory", "user"];

/** Characters of each file that reach the system prompt (and that the tool may fill). */
export const PROMPT_BUDGET = 8_000;
/** Largest file the write route accepts (people may keep notes beyond the prompt budget). */
export const MAX_MEMORY_FILE_CHARS = 256 * 1024;

const FILE_NAMES: Record<MemorySection, string> = { memory: "MEMORY.md", user: "USER.md" };
const locks = new Map<string, Promise<unknown>>();

export function memoryPath(stateDir: string, section: MemorySection): string {
  return join(stateDir, FILE_NAMES[section]);
}

/** The file's text ("" when it does not exist yet). */
export async function readMemory(stateDir: string, section: MemorySection): Promise<string> {
  try {
    return await Deno.readTextFile(memoryPath(stateDir, section));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

async function locked<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const run = (locks.get(path) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => {});
  locks.set(path, tail);
  try {
    return await run;
  } finally {
    if (locks.get(path) === tail) locks.delete(path);
  }
}

async function writeFileAtomic(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(tmp, text, { mode: 0o600 });
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Replace a whole file (the memory panel's editor). */
export async function writeMemory(
  stateDir: string,
  section: MemorySection,
  content: string,
): Promise<void> {
  if (content.length > MAX_MEMORY_FILE_CHARS) {
    throw new ValidationError(
      `${FILE_NAMES[section]} may hold up to ${MAX_MEMORY_FILE_CHARS} characters`,
      "content",
    );
  }
  const path = memoryPath(stateDir, section);
  await locked(path, () => writeFileAtomic(path, content));
}

/** The `- ` entries of a memory file, in order (text after the bullet). */
export function memoryEntries(text: string): string[] {
  return text.split("\n").filter((l) => /^\s*[-*] /.test(l)).map((l) =>
    l.replace(/^\s*[-*] /, "").trim()
  );
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

export type MemoryEdit =
  | { action: "add"; content: string }
  | { action: "replace"; old_text: string; content: string }
  | { action: "remove"; old_text: string };

/** Find the one entry line meant by `oldText`: an exact entry, else a unique substring. */
function findEntry(lines: string[], oldText: string, file: string): number {
  const needle = oneLine(oldText);
  if (!needle) throw new ValidationError("old_text is empty", "old_text");
  const bullets = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*[-*] /.test(l));
  const text = (l: string) => l.replace(/^\s*[-*] /, "").trim();
  const exact = bullets.filter(([l]) => text(l) === needle);
  if (exact.length >= 1) return exact[0][1];
  const partial = bullets.filter(([l]) => text(l).includes(needle));
  if (partial.length === 1) return partial[0][1];
  if (partial.length === 0) {
    throw new NotFoundError(`No entry in ${file} contains "${needle}"`);
  }
  throw new ValidationError(
    `"${needle}" matches ${partial.length} entries in ${file}; quote more of the one you mean: ` +
      partial.map(([l]) => JSON.stringify(text(l))).join(", "),
    "old_text",
  );
}

/**
 * Apply one memory-tool edit and return the file's new text. Entries are single `- ` lines;
 * a file is kept within PROMPT_BUDGET so everything remembered reaches the prompt.
 */
export async function editMemory(
  stateDir: string,
  section: MemorySection,
  edit: MemoryEdit,
): Promise<string> {
  const file = FILE_NAMES[section];
  const path = memoryPath(stateDir, section);
  return await locked(path, async () => {
    const current = await readMemory(stateDir, section);
    const lines = current === "" ? [] : current.replace(/\n$/, "").split("\n");
    if (edit.action === "add") {
      const entry = oneLine(edit.content);
      if (!entry) throw new ValidationError("content is empty", "content");
      if (memoryEntries(current).includes(entry)) {
        throw new ValidationError(`${file} already has this entry`, "content");
      }
      lines.push(`- ${entry}`);
    } else {
      const index = findEntry(lines, edit.old_text, file);
      if (edit.action === "remove") lines.splice(index, 1);
      else {
        const entry = oneLine(edit.content);
        if (!entry) throw new ValidationError("content is empty; use remove", "content");
        lines[index] = `- ${entry}`;
      }
    }
    const next = lines.length ? lines.join("\n") + "\n" : "";
    if (next.length > PROMPT_BUDGET && next.length > current.length) {
      throw new ValidationError(
        `${file} would hold ${next.length} characters, over its ${PROMPT_BUDGET} budget; ` +
          `remove or shorten entries first`,
        "content",
      );
    }
    await writeFileAtomic(path, next);
    return next;
  });
}

function clip(text: string, file: string): string {
  if (text.length <= PROMPT_BUDGET) return text.trim();
  const cut = text.slice(0, PROMPT_BUDGET);
  const end = cut.lastIndexOf("\n") > PROMPT_BUDGET * 0.8 ? cut.lastIndexOf("\n") : cut.length;
  return `${cut.slice(0, end).trim()}\n[… ${file} truncated: ${
    text.length - end
  } more characters ` +
    `not shown; tidy it with the memory tool]`;
}

/**
 * The system prompt's memory section: the two files (clipped to the budget) and, when the
 * `memory` tool is offered, how to use it. Null when there is nothing to say.
 */
export async function memoryPromptSection(
  stateDir: string,
  opts: { toolOffered?: boolean } = {},
): Promise<string | null> {
  const [memory, user] = await Promise.all([
    readMemory(stateDir, "memory"),
    readMemory(stateDir, "user"),
  ]);
  const guide = `Use the \`memory\` tool to save durable facts worth knowing in later sessions ` +
    `(target "memory": what you learned about tasks, tools and this environment; target ` +
    `"user": who the user is and how they like to work). Keep entries short; do not save ` +
    `secrets or things that only matter for the current task.`;
  const parts: string[] = [];
  if (memory.trim()) parts.push(`### What you learned (MEMORY.md)\n${clip(memory, "MEMORY.md")}`);
  if (user.trim()) parts.push(`### About the user (USER.md)\n${clip(user, "USER.md")}`);
  if (parts.length === 0 && !opts.toolOffered) return null;
  const intro = opts.toolOffered ? guide : "What you remember from earlier sessions:";
  return [`## Memory\n${intro}`, ...parts].join("\n\n");
}
