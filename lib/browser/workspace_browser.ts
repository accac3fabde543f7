// Browser-safe: imports nothing from Deno or the database.
// The workspace panel's contents, loaded by lib/browser/pages/workspace_panel.ts when the panel
// first opens (the chat page does not pay for it up front): the lazy file tree (GET /api/list
// per folder on first expand, WAI tree keyboard), the git badge (GET /api/git-info) and the
// preview (lib/browser/file_preview.ts). Tree rows are cloned from the server's <template>s, so they
// match the first paint exactly; names enter the DOM as textContent only.
import { api, ApiError } from "./api_client.ts";
import { el, openDialog } from "./ui_menu.ts";
import * as actions from "./workspace/file_actions.ts";
import { wireResize } from "./workspace/panel_resize.ts";
import { refreshGitBadge } from "./workspace/git_badge.ts";
import type { EditorHandle, OpenedFile } from "./workspace/editor.ts";
import {
  codeView,
  formatBytes,
  kindOf,
  languageFor,
  markdownView,
  message,
} from "./file_preview.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

interface Listing {
  entries: Array<
    { name: string; path: string; type: "dir" | "file" | "symlink"; size: number | null }
  >;
  truncated?: boolean;
}

const panel = () => document.getElementById("workspace-panel");
const tree = () => document.querySelector<HTMLElement>("[data-file-tree]");
const sessionId = () => panel()?.dataset.sessionId ?? null;

const q = (path: string) => encodeURIComponent(path);
const rawUrl = (path: string, download = false) =>
  `/api/file/raw?session_id=${q(sessionId() ?? "")}&path=${q(path)}${
    download ? "&download=1" : ""
  }`;

// Tree -----------------------------------------------------------------------------------

function status(text: string): void {
  const p = panel()?.querySelector<HTMLElement>("[data-tree-status]");
  if (!p) return;
  p.textContent = text;
  p.hidden = !text;
}

/** A tree row cloned from the server's template (identical markup to the first paint). */
function treeItem(entry: Listing["entries"][number], level: number): HTMLElement {
  const tpl = panel()!.querySelector<HTMLTemplateElement>(
    `template[data-template="${entry.type === "dir" ? "tree-dir" : "tree-file"}"]`,
  )!;
  const li = (tpl.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  li.dataset.path = entry.path;
  li.dataset.type = entry.type;
  if (entry.size !== null) li.dataset.size = String(entry.size);
  li.setAttribute("aria-level", String(level));
  li.querySelector<HTMLElement>(".tree-row")!.style.setProperty("--level", String(level - 1));
  li.querySelector(".tree-name")!.textContent = entry.name;
  return li;
}

/** List `path` into `group` (replacing what it held). */
async function loadDir(path: string, group: HTMLElement, level: number): Promise<boolean> {
  const sid = sessionId();
  // A new chat has no session yet: list the workspace it will use.
  const ws = panel()?.dataset.workspace;
  if (!sid && !ws) return false;
  group.setAttribute("aria-busy", "true");
  try {
    const listing = await api<Listing>(
      "GET",
      sid
        ? `/api/list?session_id=${q(sid)}&path=${q(path)}`
        : `/api/list?workspace=${q(ws!)}&path=${q(path)}`,
    );
    const items = listing.entries.map((e) => treeItem(e, level));
    if (listing.truncated) {
      items.push(el("li", { class: "tree-note", role: "none" }, t("workspace.moreEntries")));
    }
    if (items.length === 0 && level > 1) {
      items.push(el("li", { class: "tree-note", role: "none" }, t("workspace.emptyFolder")));
    }
    group.replaceChildren(...items);
    if (level === 1) status(items.length === 0 ? t("workspace.folderEmpty") : "");
    return true;
  } catch (err) {
    const why = err instanceof ApiError ? err.message : String(err);
    const text = path === "."
      ? t("workspace.listRootFailed", { error: why })
      : t("workspace.listFailed", { path, error: why });
    if (level === 1) status(text);
    else group.replaceChildren(el("li", { class: "tree-note", role: "none" }, text));
    return false;
  } finally {
    group.removeAttribute("aria-busy");
  }
}

async function ensureTree(): Promise<void> {
  const root = tree();
  if (!root || root.dataset.loaded === "true" || root.dataset.loaded === "loading") {
    ensureRoving();
    return;
  }
  root.dataset.loaded = "loading";
  const ok = await loadDir(".", root, 1);
  root.dataset.loaded = ok ? "true" : "false";
  ensureRoving();
}

/** Reload the tree, keeping open the folders that were open and still exist. */
function reloadTree(): Promise<void> {
  // One reload at a time: a second one reads the first one's rows, so nothing opened in between
  // is lost.
  reloading = reloading.then(reloadTreeNow, reloadTreeNow);
  return reloading;
}
let reloading: Promise<void> = Promise.resolve();

async function reloadTreeNow(): Promise<void> {
  const root = tree();
  if (!root) return;
  // Which folders are open is read from the old rows once the new listing has replaced them, not
  // before the fetch: a folder the user opened (or closed) while the listing was in flight keeps
  // that state instead of snapping back.
  const oldRows = [...root.children];
  root.dataset.loaded = "loading";
  const ok = await loadDir(".", root, 1);
  root.dataset.loaded = ok ? "true" : "false";
  const stillShown = root.contains(oldRows[0] ?? null);
  const rowsOf = (scope: Element[]) =>
    scope.flatMap((c) => [c, ...c.querySelectorAll<HTMLElement>("[role=treeitem]")])
      .filter((i): i is HTMLElement => i.matches("[role=treeitem]"));
  const before = stillShown ? [] : rowsOf(oldRows);
  const expanded = before.filter((i) => i.getAttribute("aria-expanded") === "true")
    .map((i) => i.dataset.path!);
  const selected = before.find((i) => i.getAttribute("aria-selected") === "true")?.dataset.path;
  for (const path of expanded) {
    const item = findItem(path);
    if (item) await expand(item, true);
  }
  if (selected) findItem(selected)?.setAttribute("aria-selected", "true");
  ensureRoving();
}

function findItem(path: string): HTMLElement | null {
  return tree()?.querySelector<HTMLElement>(`[role=treeitem][data-path="${CSS.escape(path)}"]`) ??
    null;
}

async function expand(item: HTMLElement, open: boolean): Promise<void> {
  const group = item.querySelector<HTMLElement>(":scope > [role=group]");
  if (!group) return;
  item.setAttribute("aria-expanded", String(open));
  group.hidden = !open;
  if (open && item.dataset.loaded !== "true") {
    item.dataset.loaded = "true";
    const level = Number(item.getAttribute("aria-level") ?? "1") + 1;
    if (!(await loadDir(item.dataset.path!, group, level))) delete item.dataset.loaded;
  }
}

/** Visible tree items in document order (those not inside a collapsed folder). */
function visibleItems(): HTMLElement[] {
  return [...(tree()?.querySelectorAll<HTMLElement>("[role=treeitem]") ?? [])]
    .filter((i) => !i.parentElement?.closest("[role=group][hidden]"));
}

function focusItem(item: HTMLElement | undefined): void {
  if (!item) return;
  for (const i of tree()?.querySelectorAll<HTMLElement>("[role=treeitem][tabindex='0']") ?? []) {
    i.tabIndex = -1;
  }
  item.tabIndex = 0;
  item.focus({ preventScroll: false });
}

/** Exactly one item is in the tab order (the selected one, else the first). */
function ensureRoving(): void {
  const root = tree();
  if (!root || root.querySelector("[role=treeitem][tabindex='0']")) return;
  const first = root.querySelector<HTMLElement>("[aria-selected=true]") ??
    root.querySelector<HTMLElement>("[role=treeitem]");
  if (first) first.tabIndex = 0;
}

function activate(item: HTMLElement): void {
  if (item.dataset.type === "dir") {
    void expand(item, item.getAttribute("aria-expanded") !== "true");
    focusItem(item);
    return;
  }
  for (const i of tree()?.querySelectorAll("[aria-selected=true]") ?? []) {
    i.setAttribute("aria-selected", "false");
  }
  item.setAttribute("aria-selected", "true");
  focusItem(item);
  void openPreview(item.dataset.path!, Number(item.dataset.size ?? NaN));
}

function onTreeKey(e: KeyboardEvent): void {
  const item = (e.target as Element).closest<HTMLElement>("[role=treeitem]");
  if (!item) return;
  const items = visibleItems();
  const at = items.indexOf(item);
  const isDir = item.dataset.type === "dir";
  const expanded = item.getAttribute("aria-expanded") === "true";
  switch (e.key) {
    case "ArrowDown":
      focusItem(items[at + 1]);
      break;
    case "ArrowUp":
      focusItem(items[at - 1]);
      break;
    case "Home":
      focusItem(items[0]);
      break;
    case "End":
      focusItem(items.at(-1));
      break;
    case "ArrowRight":
      if (isDir && !expanded) void expand(item, true);
      else if (isDir) focusItem(items[at + 1]);
      break;
    case "ArrowLeft":
      if (isDir && expanded) void expand(item, false);
      else focusItem(item.parentElement?.closest<HTMLElement>("[role=treeitem]") ?? undefined);
      break;
    case "Enter":
    case " ":
      activate(item);
      break;
    case "F2":
      void actions.rename(host, item.dataset.path!);
      break;
    case "Delete":
      void actions.remove(host, item.dataset.path!, isDir);
      break;
    case "ContextMenu":
      actions.openRowMenu(host, item, { anchor: item.querySelector(".tree-row") ?? item });
      break;
    case "F10":
      if (!e.shiftKey) return;
      actions.openRowMenu(host, item, { anchor: item.querySelector(".tree-row") ?? item });
      break;
    default:
      return;
  }
  e.preventDefault();
}

// Git badge ------------------------------------------------------------------------------

function refreshGit(): Promise<void> {
  const badge = panel()?.querySelector<HTMLElement>("[data-git-badge]");
  const sid = sessionId();
  return badge && sid ? refreshGitBadge(badge, sid) : Promise.resolve();
}

// Preview --------------------------------------------------------------------------------

let previewSeq = 0;
let previewPath: string | null = null;
let markdownSource: string | null = null;

function previewParts() {
  const p = panel()!;
  return {
    section: p.querySelector<HTMLElement>("[data-file-preview]")!,
    body: p.querySelector<HTMLElement>("[data-preview-body]")!,
    path: p.querySelector<HTMLElement>("[data-preview-path]")!,
    meta: p.querySelector<HTMLElement>("[data-preview-meta]")!,
    download: p.querySelector<HTMLAnchorElement>("[data-preview-download]")!,
    source: p.querySelector<HTMLButtonElement>('[data-action="preview-source"]')!,
    edit: p.querySelector<HTMLButtonElement>('[data-action="preview-edit"]'),
  };
}

async function showMarkdown(mode: "rendered" | "source"): Promise<void> {
  const { body, source } = previewParts();
  const path = previewPath;
  if (markdownSource === null || !path) return;
  const mine = ++previewSeq;
  const view = mode === "source"
    ? await codeView(markdownSource, "markdown")
    : await markdownView(markdownSource, path, (p) => rawUrl(p));
  if (mine !== previewSeq) return;
  body.replaceChildren(view);
  body.dataset.kind = mode === "source" ? "code" : "markdown";
  source.setAttribute("aria-pressed", String(mode === "source"));
  source.title = mode === "source" ? t("workspace.showRendered") : t("workspace.showSource");
}

/** Open the preview of `path` (a file of the session's workspace). */
export async function openPreview(path: string, size = NaN, edit = false): Promise<void> {
  const sid = sessionId();
  const p = panel();
  if (!sid || !p) return;
  if (!(await leaveEditor())) return;
  const parts = previewParts();
  const mine = ++previewSeq;
  openedFile = null;
  if (parts.edit) parts.edit.hidden = true;
  previewPath = path;
  markdownSource = null;
  p.dataset.preview = "open";
  parts.section.hidden = false;
  parts.path.textContent = path;
  parts.path.title = path;
  parts.meta.textContent = Number.isFinite(size) ? formatBytes(size) : "";
  parts.download.href = rawUrl(path, true);
  parts.source.hidden = true;
  parts.body.dataset.kind = "loading";
  parts.body.replaceChildren(el("p", { class: "preview-loading" }, t("common.loading")));
  parts.body.scrollTop = 0;
  // The tree is hidden behind the preview: keep keyboard focus in the panel (Escape = back).
  if (
    !document.activeElement || document.activeElement === document.body ||
    p.contains(document.activeElement)
  ) {
    parts.body.focus({ preventScroll: true });
  }

  const kind = kindOf(path);
  if (kind === "image") {
    const img = el("img", {
      class: "preview-image",
      src: rawUrl(path),
      alt: path.split("/").at(-1)!,
    });
    img.addEventListener("error", () => {
      if (mine === previewSeq) {
        parts.body.replaceChildren(message(t("workspace.imageFailed"), rawUrl(path, true)));
      }
    });
    parts.body.replaceChildren(el("div", { class: "preview-image-wrap" }, img));
    parts.body.dataset.kind = "image";
    return;
  }

  let file: OpenedFile & { lines: number };
  try {
    file = await api("GET", `/api/file?session_id=${q(sid)}&path=${q(path)}&head=1`);
  } catch (err) {
    if (mine !== previewSeq) return;
    const why = err instanceof ApiError ? err.message : String(err);
    parts.body.replaceChildren(message(why, rawUrl(path, true)));
    parts.body.dataset.kind = "error";
    return;
  }
  if (mine !== previewSeq) return;
  const meta = { count: file.lines, size: formatBytes(file.size) };
  parts.meta.textContent = file.truncated
    ? t("workspace.metaReadOnly", meta)
    : t("workspace.metaLines", meta);
  const replacement = (file.content.match(/\uFFFD/g) ?? []).length;
  if (file.content.includes("\u0000") || replacement > Math.max(8, file.content.length / 100)) {
    parts.body.replaceChildren(message(t("workspace.binaryFile"), rawUrl(path, true)));
    parts.body.dataset.kind = "binary";
    return;
  }
  openedFile = file;
  if (parts.edit) parts.edit.hidden = !!file.readonly;
  if (edit || file.truncated) {
    await startEditor(file, mine);
    return;
  }
  if (kind === "markdown") {
    markdownSource = file.content;
    parts.source.hidden = false;
    await showMarkdown("rendered");
    return;
  }
  const view = await codeView(file.content, await languageFor(path));
  if (mine !== previewSeq) return;
  parts.body.replaceChildren(view);
  parts.body.dataset.kind = "code";
}

// Editor -----------------------------------------------------------------------------------

let openedFile: (OpenedFile & { lines: number }) | null = null;
let editor: EditorHandle | null = null;

/** Replace the preview's body by the code editor (its module and CodeMirror load now). */
async function startEditor(file: OpenedFile, seq = previewSeq): Promise<void> {
  const sid = sessionId();
  if (!sid) return;
  const parts = previewParts();
  parts.body.dataset.kind = "loading";
  const { mountEditor } = await import("./workspace/editor.ts");
  if (seq !== previewSeq) return;
  editor?.destroy();
  editor = await mountEditor(parts.body, {
    sessionId: sid,
    file,
    // The header's "5 lines · 112 B" described the file as opened: after a save the status line
    // says the new size, so the header keeps the line count only (the size shows once).
    onSaved: (lines) => parts.meta.textContent = t("workspace.metaLineCount", { count: lines }),
  });
  parts.body.dataset.kind = "editor";
  parts.source.hidden = true;
  if (parts.edit) parts.edit.hidden = true;
}

/** Close the editor, asking first when it holds unsaved edits; false when the person stays. */
async function leaveEditor(): Promise<boolean> {
  if (!editor) return true;
  if (editor.dirty()) {
    const discard = await openDialog({
      title: t("workspace.discardTitle"),
      text: openedFile
        ? t("workspace.discardText", { path: openedFile.path })
        : t("workspace.discardTextNoPath"),
      confirmLabel: t("workspace.discard"),
      tone: "danger",
      name: "discard-edits",
    });
    if (!discard) return false;
  }
  editor.destroy();
  editor = null;
  return true;
}

function closePreview(): void {
  const p = panel();
  if (!p || p.dataset.preview !== "open") return;
  if (editor) {
    void leaveEditor().then((ok) => {
      if (ok) closePreview();
    });
    return;
  }
  previewSeq++;
  p.dataset.preview = "closed";
  const { section, body } = previewParts();
  section.hidden = true;
  body.replaceChildren();
  const item = previewPath ? findItem(previewPath) : null;
  previewPath = null;
  markdownSource = null;
  if (item) focusItem(item);
}

// Entry points ---------------------------------------------------------------------------

// Live updates ---------------------------------------------------------------------------

let feed: EventSource | null = null;
let feedSession: string | null = null;
let reloadTimer: ReturnType<typeof setTimeout> | undefined;

const panelVisible = () => {
  const a = document.querySelector<HTMLElement>(".app");
  return a?.dataset.workspacePanel === "open" || a?.dataset.panelPhone === "open";
};

/**
 * Follow the workspace's changes (GET /api/sessions/events?watch=): a change re-reads the tree
 * (open folders stay open). The stream is closed once the panel is hidden, so the server's
 * watcher closes too.
 */
function watchWorkspace(): void {
  const sid = sessionId();
  if (typeof EventSource === "undefined" || !sid) return;
  if (feed && feedSession === sid) return;
  feed?.close();
  feedSession = sid;
  feed = new EventSource(`/api/sessions/events?watch=${q(sid)}`);
  feed.addEventListener("workspace_changed", () => {
    if (!panelVisible()) {
      feed?.close();
      feed = null;
      feedSession = null;
      return;
    }
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => void reloadTree(), 150);
  });
}

function filesStatus(text: string): void {
  const s = panel()?.querySelector<HTMLElement>("[data-files-status]");
  if (s) s.textContent = text;
}

const host: actions.FileActionsHost = {
  sessionId,
  reload: () => reloadTree(),
  open: (path, edit) => void openPreview(path, NaN, edit),
  status: filesStatus,
};

/** Show the files: list the root (once) and read the git state. */
export function showFiles(): void {
  void ensureTree();
  void refreshGit();
  watchWorkspace();
}

/** Re-read the tree (keeping open folders open) and the git state. */
export function reloadFiles(): void {
  void reloadTree();
  void refreshGit();
}

/** The session's workspace changed: forget the tree and the preview, show the new name. */
export function resetWorkspace(label: string): void {
  const name = panel()?.querySelector<HTMLElement>(".panel-root-name");
  if (name) name.textContent = label;
  closePreview();
  const root = tree();
  if (root) root.dataset.loaded = "false";
  feed?.close();
  feed = null;
  feedSession = null;
}

/** The first focusable thing in the panel (for focus on open). */
export function focusTarget(): HTMLElement | null {
  return panel()?.querySelector<HTMLElement>(
    "[data-file-tree] [tabindex='0'], [data-file-tree] [role=treeitem], .panel-head .btn",
  ) ?? null;
}

/** A panel button (`data-action`) the page script passed on. */
export function handleAction(action: string, btn: HTMLElement): void {
  if (action === "panel-refresh") reloadFiles();
  else if (action === "preview-close") closePreview();
  else if (action === "preview-source") {
    void showMarkdown(btn.getAttribute("aria-pressed") === "true" ? "rendered" : "source");
  } else if (action === "preview-edit" && openedFile) void startEditor(openedFile);
  else if (action === "panel-more") actions.openRootMenu(host, btn);
}

let attached = false;

/** Wire the tree's and the preview's own events (once). */
export function attach(): void {
  const p = panel();
  if (attached || !p) return;
  attached = true;
  // What the Git tab or a rollback changed shows at once, as a reload would show it.
  onHermesEvent("hermes:git-changed", ({ session_id }) => {
    if (session_id === sessionId()) reloadFiles();
  });
  // Copy buttons of code blocks in a rendered markdown preview.
  p.querySelector("[data-preview-body]")?.addEventListener("click", (e) => {
    const btn = (e.target as Element).closest<HTMLButtonElement>(".code-copy");
    const code = btn?.closest("pre")?.querySelector("code")?.textContent;
    if (!btn || code == null) return;
    navigator.clipboard?.writeText(code).then(
      () => {
        btn.textContent = t("common.copied");
        setTimeout(() => (btn.textContent = t("common.copy")), 1500);
      },
      () => (btn.textContent = t("workspace.copyFailed")),
    );
  });
  tree()?.addEventListener("click", (e) => {
    const more = (e.target as Element).closest<HTMLElement>("[data-tree-more]");
    const row = (e.target as Element).closest(".tree-row");
    const item = row?.closest<HTMLElement>("[role=treeitem]");
    if (item && more) actions.openRowMenu(host, item, { anchor: more });
    else if (item) activate(item);
  });
  tree()?.addEventListener("contextmenu", (e) => {
    const item = (e.target as Element).closest<HTMLElement>("[role=treeitem]");
    if (!item) return;
    e.preventDefault();
    focusItem(item);
    actions.openRowMenu(host, item, { point: { x: e.clientX, y: e.clientY } });
  });
  // Buttons this view added to the panel (the page script forwards only its own).
  p.addEventListener("click", (e) => {
    const btn = (e.target as Element).closest<HTMLElement>(
      '[data-action="panel-more"], [data-action="preview-edit"]',
    );
    if (btn) handleAction(btn.dataset.action!, btn);
  });
  const files = p.querySelector<HTMLElement>("[data-panel-files]");
  if (files) actions.wireDrop(host, files);
  wireResize(p);
  tree()?.addEventListener("keydown", onTreeKey);
  p.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && p.dataset.preview === "open" && !e.defaultPrevented) {
      e.preventDefault();
      closePreview();
    }
  });
}
