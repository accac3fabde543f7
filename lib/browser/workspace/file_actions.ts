// Browser-safe: imports nothing from Deno or the database.
// The Files view's changes to the workspace: new file/folder, rename, delete (to the trash, with
// "Recently deleted" to restore), upload by drag-drop or picker (with progress), zip download.
// Each calls the /api/file/*, /api/workspace/upload and /api/folder/download routes and then
// the `reload` it was given; names enter the DOM as textContent only.
import { api, ApiError, csrfToken } from "../api_client.ts";
import { el, type MenuEntry, openDialog, openMenu } from "../ui_menu.ts";
import { formatBytes } from "../file_preview.ts";
import { formatDate, t } from "../../i18n/t.ts";

export interface FileActionsHost {
  sessionId(): string | null;
  /** Re-read the tree (open folders stay open). */
  reload(): void | Promise<void>;
  /** Open a file's preview / editor. */
  open(path: string, edit?: boolean): void;
  /** A short status line for the person (progress, results, errors). */
  status(text: string): void;
}

const q = encodeURIComponent;
const parentOf = (
  path: string,
) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".");
const join = (dir: string, name: string) => (dir === "." || dir === "" ? name : `${dir}/${name}`);
const nameOf = (path: string) => path.split("/").at(-1) ?? path;
/** A deletion's time, as `Date#toLocaleString()` writes it but in the page's locale. */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
};

/** Ask for a name; `submit` runs with it and may throw (the dialog shows why and stays open). */
function askName(
  title: string,
  label: string,
  initial: string,
  confirmLabel: string,
  submit: (name: string) => Promise<void>,
): Promise<boolean> {
  const input = el("input", {
    type: "text",
    value: initial,
    "aria-label": label,
    autocomplete: "off",
    spellcheck: "false",
    "data-name-input": true,
  });
  queueMicrotask(() => {
    const dot = initial.lastIndexOf(".");
    input.setSelectionRange(0, dot > 0 ? dot : initial.length);
  });
  return openDialog({
    title,
    content: el("label", { class: "dialog-field" }, label, input),
    confirmLabel,
    initialFocus: input,
    name: "file-name",
    onConfirm: () => submit(input.value.trim()),
  });
}

export function newFile(host: FileActionsHost, dir = "."): Promise<boolean> {
  return askName(
    t("workspace.newFile"),
    t("workspace.fileName"),
    "",
    t("workspace.create"),
    async (name) => {
      const sid = host.sessionId();
      if (!sid) return;
      const r = await api<{ path: string }>("POST", "/api/file/create", {
        session_id: sid,
        path: join(dir, name),
        content: "",
        parents: true, // "notes/todo.md" makes notes/ when it is missing
      });
      await host.reload();
      host.open(r.path, true);
    },
  );
}

export function newFolder(host: FileActionsHost, dir = "."): Promise<boolean> {
  return askName(
    t("workspace.newFolder"),
    t("workspace.folderName"),
    "",
    t("workspace.create"),
    async (name) => {
      const sid = host.sessionId();
      if (!sid) return;
      await api("POST", "/api/file/create-dir", { session_id: sid, path: join(dir, name) });
      await host.reload();
    },
  );
}

export function rename(host: FileActionsHost, path: string): Promise<boolean> {
  const title = t("workspace.renameTitle", { name: nameOf(path) });
  return askName(title, t("workspace.newName"), nameOf(path), t("common.rename"), async (name) => {
    const sid = host.sessionId();
    if (!sid) return;
    await api("POST", "/api/file/rename", { session_id: sid, path, new_name: name });
    await host.reload();
  });
}

export async function remove(host: FileActionsHost, path: string, isDir: boolean) {
  const sid = host.sessionId();
  if (!sid) return;
  let trashId: string | null = null;
  const ok = await openDialog({
    title: t("workspace.deleteTitle", { name: nameOf(path) }),
    text: isDir ? t("workspace.deleteFolderText") : t("workspace.deleteFileText"),
    confirmLabel: t("common.delete"),
    tone: "danger",
    name: "file-delete",
    onConfirm: async () => {
      try {
        const r = await api<{ trash_id: string | null }>("POST", "/api/file/delete", {
          session_id: sid,
          path,
          recursive: isDir,
        });
        trashId = r.trash_id;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          throw new Error(t("workspace.deleteNeedsPermanent", { error: err.message }));
        }
        throw err;
      }
    },
  });
  if (!ok) return;
  await host.reload();
  host.status(
    trashId
      ? t("workspace.deletedToTrash", { name: nameOf(path) })
      : t("workspace.deleted", { path }),
  );
}

interface TrashItem {
  id: string;
  path: string;
  type: string;
  size: number | null;
  deleted_at: number;
}

/** "Recently deleted": the workspace's trash, each with a Restore button. */
export async function showTrash(host: FileActionsHost): Promise<void> {
  const sid = host.sessionId();
  if (!sid) return;
  const { items } = await api<{ items: TrashItem[] }>(
    "GET",
    `/api/file/trash?session_id=${q(sid)}`,
  );
  const list = el("ul", { class: "trash-list", "data-trash-list": true });
  const note = el("p", { class: "dialog-text", role: "status" });
  if (items.length === 0) note.textContent = t("workspace.trashEmpty");
  for (const item of items) {
    const when = formatDate(item.deleted_at * 1000, DATE_TIME);
    const btn = el(
      "button",
      { type: "button", class: "btn btn-secondary btn-sm" },
      t("workspace.restore"),
    );
    const li = el(
      "li",
      { class: "trash-item", "data-trash-path": item.path },
      el("span", { class: "trash-path mono" }, item.path),
      el(
        "span",
        { class: "trash-meta" },
        t("workspace.trashMeta", {
          kind: item.type === "dir" ? "dir" : "file",
          size: item.size !== null ? formatBytes(item.size) : "",
          when,
        }),
      ),
      btn,
    );
    btn.addEventListener("click", async () => {
      btn.disabled = true;
      try {
        await api("POST", "/api/file/restore", { session_id: sid, id: item.id });
        li.remove();
        note.textContent = t("workspace.restored", { path: item.path });
        await host.reload();
      } catch (err) {
        note.textContent = (err as Error).message;
        btn.disabled = false;
      }
    });
    list.append(li);
  }
  await openDialog({
    title: t("workspace.recentlyDeleted"),
    content: el("div", {}, note, list),
    confirmLabel: t("common.done"),
    cancelLabel: t("common.close"),
    name: "trash",
  });
}

/**
 * Upload `files` into the folder `dir` with progress (XMLHttpRequest: fetch reports no upload
 * progress). Resolves with the stored paths.
 */
export function upload(host: FileActionsHost, dir: string, files: File[]): Promise<string[]> {
  const sid = host.sessionId();
  if (!sid || files.length === 0) return Promise.resolve([]);
  const form = new FormData();
  form.set("session_id", sid);
  form.set("path", dir);
  for (const f of files) form.append("file", f, f.name);
  const total = files.reduce((a, f) => a + f.size, 0);
  const what = { count: files.length, name: files[0].name, size: formatBytes(total) };
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/workspace/upload");
    const token = csrfToken();
    if (token) xhr.setRequestHeader("x-hermes-csrf-token", token);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.addEventListener("progress", (e) => {
      const pct = e.lengthComputable ? Math.round((e.loaded / e.total) * 100) : null;
      host.status(
        pct === null
          ? t("workspace.uploading", what)
          : t("workspace.uploadingPercent", { ...what, percent: pct }),
      );
    });
    xhr.addEventListener("load", async () => {
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch { /* reported below */ }
      if (xhr.status < 200 || xhr.status >= 300) {
        const msg = typeof body?.error === "string"
          ? body.error
          : t("workspace.uploadFailedStatus", { status: String(xhr.status) });
        host.status(msg);
        reject(new Error(msg));
        return;
      }
      const stored = Array.isArray(body?.files)
        ? (body!.files as Array<{ path: string }>).map((f) => f.path)
        : [String(body?.path)];
      host.status(t("workspace.uploaded", { paths: stored.join(", ") }));
      await host.reload();
      resolve(stored);
    });
    xhr.addEventListener("error", () => {
      host.status(t("workspace.uploadUnreachable"));
      reject(new Error("network"));
    });
    host.status(t("workspace.uploadingPercent", { ...what, percent: 0 }));
    xhr.send(form);
  });
}

/** Pick files with the system dialog and upload them into `dir`. */
export function pickAndUpload(host: FileActionsHost, dir = "."): void {
  const input = el("input", { type: "file", multiple: true, hidden: true });
  input.addEventListener("change", () => {
    void upload(host, dir, [...(input.files ?? [])]).catch(() => {});
    input.remove();
  });
  document.body.append(input);
  input.click();
}

export function folderZipUrl(sid: string, dir: string): string {
  return `/api/folder/download?session_id=${q(sid)}&path=${q(dir)}`;
}

export async function deletePermanently(host: FileActionsHost, path: string, isDir: boolean) {
  const sid = host.sessionId();
  if (!sid) return;
  const ok = await openDialog({
    title: t("workspace.deletePermanentlyTitle", { name: nameOf(path) }),
    text: t("workspace.deletePermanentlyText"),
    confirmLabel: t("workspace.deletePermanently"),
    tone: "danger",
    name: "file-delete-permanent",
    onConfirm: async () => {
      await api("POST", "/api/file/delete", {
        session_id: sid,
        path,
        recursive: isDir,
        permanent: true,
      });
    },
  });
  if (ok) await host.reload();
}

/** The menu of a tree row (right-click, its ⋯, Shift+F10 / the context-menu key). */
export function openRowMenu(
  host: FileActionsHost,
  item: HTMLElement,
  at: { anchor?: Element; point?: { x: number; y: number } },
): void {
  const sid = host.sessionId();
  const path = item.dataset.path;
  if (!sid || !path) return;
  const isDir = item.dataset.type === "dir";
  const items: MenuEntry[] = isDir
    ? [
      {
        label: t("workspace.newFileHere"),
        action: "new-file",
        onSelect: () => void newFile(host, path),
      },
      {
        label: t("workspace.newFolderHere"),
        action: "new-folder",
        onSelect: () => void newFolder(host, path),
      },
      {
        label: t("workspace.uploadHere"),
        action: "upload",
        onSelect: () => pickAndUpload(host, path),
      },
      {
        label: t("workspace.downloadZip"),
        action: "download",
        href: folderZipUrl(sid, path),
        download: true,
      },
    ]
    : [
      { label: t("common.open"), action: "open", onSelect: () => host.open(path) },
      { label: t("common.edit"), action: "edit", onSelect: () => host.open(path, true) },
      {
        label: t("common.download"),
        action: "download",
        href: `/api/file/raw?session_id=${q(sid)}&path=${q(path)}&download=1`,
        download: true,
      },
    ];
  items.push(
    "separator",
    { label: t("workspace.renameMenu"), action: "rename", onSelect: () => void rename(host, path) },
    {
      label: t("workspace.deleteMenu"),
      action: "delete",
      danger: true,
      onSelect: () => void remove(host, path, isDir),
    },
    {
      label: t("workspace.deletePermanentlyMenu"),
      action: "delete-permanent",
      danger: true,
      onSelect: () => void deletePermanently(host, path, isDir),
    },
  );
  openMenu({ items, label: t("workspace.actionsFor", { name: nameOf(path) }), ...at });
}

/** The panel's ⋯ menu: actions on the workspace root. */
export function openRootMenu(host: FileActionsHost, anchor: Element): void {
  const sid = host.sessionId();
  if (!sid) return;
  openMenu({
    label: t("workspace.workspaceActions"),
    anchor,
    items: [
      { label: t("workspace.newFileMenu"), action: "new-file", onSelect: () => void newFile(host) },
      {
        label: t("workspace.newFolderMenu"),
        action: "new-folder",
        onSelect: () => void newFolder(host),
      },
      { label: t("workspace.uploadFiles"), action: "upload", onSelect: () => pickAndUpload(host) },
      {
        label: t("workspace.downloadZip"),
        action: "download",
        href: folderZipUrl(sid, "."),
        download: true,
      },
      "separator",
      {
        label: t("workspace.recentlyDeletedMenu"),
        action: "trash",
        onSelect: () => void showTrash(host).catch((e) => host.status((e as Error).message)),
      },
    ],
  });
}

/**
 * Drag-drop upload onto the tree: a drop on a folder row lands in that folder, anywhere else in
 * the workspace root. The drop target is highlighted while files hover over it.
 */
export function wireDrop(host: FileActionsHost, zone: HTMLElement): void {
  const targetOf = (e: DragEvent) => {
    const item = (e.target as Element | null)?.closest<HTMLElement>("[role=treeitem]");
    if (!item) return { dir: ".", node: zone };
    if (item.dataset.type === "dir") return { dir: item.dataset.path!, node: item };
    const parent = item.parentElement?.closest<HTMLElement>("[role=treeitem]");
    return parent ? { dir: parent.dataset.path!, node: parent } : { dir: ".", node: zone };
  };
  const clear = () => {
    for (const n of zone.querySelectorAll("[data-drop-target]")) {
      n.removeAttribute("data-drop-target");
    }
    zone.removeAttribute("data-drop-target");
  };
  const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes("Files");
  zone.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = "copy";
    clear();
    targetOf(e).node.setAttribute("data-drop-target", "true");
  });
  zone.addEventListener("dragleave", (e) => {
    if (!zone.contains(e.relatedTarget as Node | null)) clear();
  });
  zone.addEventListener("drop", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    const { dir } = targetOf(e);
    clear();
    const files = [...(e.dataTransfer?.files ?? [])];
    void upload(host, dir, files).catch(() => {});
  });
}

export { parentOf };
