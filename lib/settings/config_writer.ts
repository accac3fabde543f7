// Edits of config.yaml as raw YAML documents: comments, `${ENV}` strings, anchors and unrelated
// keys survive. Invariants: one async lock per path serializes cooperating writes in this
// process; a malformed or non-mapping file is refused and never touched; a write is a temp file
// in the same directory renamed over the original (mode kept), so readers see old or new, whole.
import {
  Alias,
  Document,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  Pair,
  parseDocument,
  visit,
  YAMLMap,
} from "yaml";
import { basename, dirname, join, resolve } from "node:path";
import { type AppConfig, parseConfigText } from "./config.ts";
import { ValidationError } from "../errors.ts";
import { isMaskedSecret } from "../security/secrets.ts";

/** Tail of the lock chain per resolved path: each edit waits for the previous one. */
const locks = new Map<string, Promise<unknown>>();

/** Parse options shared by readers and writers: `<<` merge keys are honoured. */
export const YAML_OPTIONS = { merge: true } as const;

/** Long strings stay on one line; flow collections stay compact as people write them. */
const STRINGIFY_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

async function withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(path) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => {});
  locks.set(path, tail);
  try {
    return await run;
  } finally {
    if (locks.get(path) === tail) locks.delete(path);
  }
}

async function readExisting(path: string): Promise<{ text: string; mode: number } | null> {
  try {
    const [text, info] = await Promise.all([Deno.readTextFile(path), Deno.stat(path)]);
    return { text, mode: (info.mode ?? 0o600) & 0o7777 };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new ValidationError(
      `Cannot read config file ${path}: ${(err as Error).message}; it was not changed`,
    );
  }
}

/** Parse `text` into a document that is safe to edit, or explain (file + line) why not. */
function parseForEdit(text: string, path: string): Document {
  const doc = parseDocument(text, YAML_OPTIONS);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = e.linePos?.[0];
    const reason = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
    throw new ValidationError(
      `Config file ${path} is malformed${where}: ${reason}. Fix it by hand; it was not changed`,
    );
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    const comment = doc.contents?.commentBefore;
    doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
    if (comment && doc.contents) (doc.contents as Node).commentBefore = comment;
  } else if (!isMap(doc.contents)) {
    throw new ValidationError(
      `Config file ${path} must be a YAML mapping at the top level; it was not changed`,
    );
  }
  return doc;
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true, mode });
    try {
      await file.write(new TextEncoder().encode(text));
      await file.syncData();
    } finally {
      file.close();
    }
    await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Edit the YAML config at `path` under its lock: read the raw document, let `mutate` change
 * it, write atomically, then resolve with what `mutate` returned. A throw from `mutate` writes
 * nothing. An unchanged document is not rewritten. Symlinked configs are edited at their target.
 */
export async function updateConfigDocument<T>(
  path: string,
  mutate: (doc: Document) => T | Promise<T>,
): Promise<T> {
  let target = resolve(path);
  try {
    target = await Deno.realPath(target);
  } catch { /* missing: created below */ }
  return await withPathLock(target, async () => {
    const existing = await readExisting(target);
    const doc = parseForEdit(existing?.text ?? "", target);
    const result = await mutate(doc);
    const text = doc.toString(STRINGIFY_OPTIONS);
    if (existing && text === existing.text) return result;
    await writeAtomically(target, text, existing?.mode ?? 0o600);
    return result;
  });
}

/** What `editConfig` needs: the config and the app's reload (settings layered, caches told). */
export interface ConfigHost {
  config: AppConfig;
  /** Re-read config.yaml into `config.file` and refresh what derives from it. */
  reloadConfig(): Promise<void>;
}

/**
 * Edit `host.config.configPath` and, only after the write succeeded and the lock is released,
 * reload the runtime copy through `host.reloadConfig()` (AppContext.reloadConfig).
 */
export async function editConfig<T>(
  host: ConfigHost,
  mutate: (doc: Document) => T | Promise<T>,
): Promise<T> {
  const result = await updateConfigDocument(host.config.configPath, mutate);
  await host.reloadConfig();
  return result;
}

/** Re-read the config file into `config.file` (raw, `${ENV}` unexpanded). */
export async function reloadConfigFile(config: AppConfig): Promise<void> {
  let text = "";
  try {
    text = await Deno.readTextFile(config.configPath);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  config.file = parseConfigText(text, config.configPath);
}

type Path = readonly (string | number)[];

/** A deep copy of `node` with anchors dropped (they stay on the original) and aliases kept. */
function cloneWithoutAnchors<N extends Node>(node: N): N {
  const copy = node.clone() as N;
  visit(copy, {
    Node(_, n) {
      if (!isAlias(n) && n.anchor) n.anchor = undefined;
    },
  });
  return copy;
}

function resolveAlias(doc: Document, alias: Alias): Node | undefined {
  return alias.resolve(doc) as Node | undefined;
}

/** Replace every alias inside `root` by a copy of its target, and expand `<<` merge keys. */
function detachSubtree(doc: Document, root: Node): void {
  for (let guard = 0; guard < 1000; guard++) {
    let changed = false;
    visit(root, {
      Alias(_, alias) {
        const target = resolveAlias(doc, alias);
        if (!target) return;
        changed = true;
        return cloneWithoutAnchors(target);
      },
    });
    visit(root, {
      Map(_, map) {
        if (expandMerges(doc, map)) changed = true;
      },
    });
    if (!changed) return;
  }
}

function isMergeKey(pair: Pair): boolean {
  const key = isScalar(pair.key) ? pair.key.value : pair.key;
  return key === "<<" || (typeof key === "symbol" && key.description === "<<");
}

/** Turn `<<: *a` / `<<: [*a, *b]` into the own keys they contribute; own keys win. */
function expandMerges(doc: Document, map: YAMLMap): boolean {
  const index = map.items.findIndex((p) => isPair(p) && isMergeKey(p as Pair));
  if (index < 0) return false;
  const mergePair = map.items[index] as Pair;
  const own = new Set(
    map.items.filter((p) => !isMergeKey(p as Pair)).map((p) => keyOf((p as Pair).key)),
  );
  const sources: unknown[] = isSeq(mergePair.value) ? mergePair.value.items : [mergePair.value];
  const added: Pair[] = [];
  for (const source of sources) {
    const resolved = isAlias(source) ? resolveAlias(doc, source) : source;
    if (!isMap(resolved)) continue;
    for (const p of resolved.items as Pair[]) {
      const k = keyOf(p.key);
      if (isMergeKey(p) || own.has(k)) continue;
      own.add(k);
      added.push(new Pair(cloneNode(p.key), cloneNode(p.value)));
    }
  }
  map.items.splice(index, 1, ...added);
  return true;
}

function cloneNode(value: unknown): unknown {
  return isNode(value) ? cloneWithoutAnchors(value) : value;
}

function keyOf(key: unknown): unknown {
  return isScalar(key) ? key.value : key;
}

function childOf(node: unknown, key: string | number): unknown {
  if (isMap(node)) return node.get(key, true);
  if (isSeq(node) && typeof key === "number") return node.get(key, true);
  return undefined;
}

function setChild(node: unknown, key: string | number, value: Node): void {
  if (isMap(node) || (isSeq(node) && typeof key === "number")) node.set(key, value);
}

/**
 * Make the entry at `path` (and the containers leading to it) private to that path, so an
 * edit or delete there never changes a sibling or template sharing an anchor: aliases on the
 * path and inside the entry become copies, `<<` merges inside it are expanded, and aliases
 * elsewhere that point into the path are replaced by copies of what they pointed to.
 */
export function detachAliases(doc: Document, path: Path): void {
  const protectedNodes = new Set<unknown>();
  let node: unknown = doc.contents;
  for (const key of path) {
    protectedNodes.add(node);
    if (isMap(node)) expandMerges(doc, node);
    let child = childOf(node, key);
    if (isAlias(child)) {
      const target = resolveAlias(doc, child);
      if (!target) return;
      child = cloneWithoutAnchors(target);
      setChild(node, key, child as Node);
    }
    if (!isNode(child)) return;
    node = child;
  }
  if (isCollection(node)) detachSubtree(doc, node);
  visit(node as Node, {
    Node(_, n) {
      protectedNodes.add(n);
    },
  });
  // Aliases outside the entry pointing at the entry, its contents or its ancestors: freeze.
  const replacements: Array<[Alias, Node]> = [];
  visit(doc, {
    Alias(_, alias) {
      const target = resolveAlias(doc, alias);
      if (target && protectedNodes.has(target)) {
        replacements.push([alias, cloneWithoutAnchors(target)]);
      }
    },
  });
  if (replacements.length === 0) return;
  const byAlias = new Map(replacements);
  visit(doc, {
    Alias(_, alias) {
      return byAlias.get(alias);
    },
  });
}

/**
 * Set `path` to `value` unless `value` is a mask (`lib/security/secrets.ts`) and a secret is stored there:
 * the client sent back what it was shown, so the stored secret is kept verbatim.
 */
export function setMasked(
  doc: Document,
  path: Path,
  value: unknown,
  opts: { isMasked?: (value: unknown, stored: unknown) => boolean } = {},
): void {
  const stored = doc.getIn(path);
  const isMasked = opts.isMasked ??
    ((v: unknown, s: unknown) => typeof s === "string" && v !== s && isMaskedSecret(v));
  if (stored !== undefined && isMasked(value, stored)) return;
  doc.setIn(path, value);
}
