// Browser-safe: imports nothing from Deno or the database.
// The Files view's code editor: CodeMirror 6 (loaded with this module, on first edit; each
// language mode is its own chunk), saving through POST /api/file/save with the hash the file had
// when it was opened. When the file changed on disk since, the person chooses: overwrite, reload
// (their edits are dropped) or cancel (keep editing). Large files open read-only (their first
// lines). Text enters CodeMirror's document, never the DOM as markup.
import { EditorState, type Extension } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { api, ApiError } from "../api_client.ts";
import { el, openDialog } from "../ui_menu.ts";
import { formatBytes } from "../file_preview.ts";
import { t } from "../../i18n/t.ts";

export interface OpenedFile {
  path: string;
  content: string;
  size: number;
  sha256: string;
  mtime: number | null;
  truncated?: boolean;
  readonly?: boolean;
}

export interface EditorHandle {
  /** True when there are edits not saved yet. */
  dirty(): boolean;
  save(): Promise<boolean>;
  destroy(): void;
}

/** The language mode for a path, as a lazily loaded extension (none: plain text). */
async function languageOf(path: string): Promise<Extension[]> {
  const name = path.split("/").at(-1)!.toLowerCase();
  const ext = name.includes(".") ? name.split(".").at(-1)! : name;
  switch (ext) {
    case "js":
    case "mjs":
    case "cjs":
    case "jsx":
      return [(await import("@codemirror/lang-javascript")).javascript({ jsx: true })];
    case "ts":
    case "mts":
    case "cts":
    case "tsx":
      return [
        (await import("@codemirror/lang-javascript")).javascript({
          typescript: true,
          jsx: ext === "tsx",
        }),
      ];
    case "py":
    case "pyi":
      return [(await import("@codemirror/lang-python")).python()];
    case "md":
    case "markdown":
    case "mdx":
      return [(await import("@codemirror/lang-markdown")).markdown()];
    case "json":
    case "jsonc":
      return [(await import("@codemirror/lang-json")).json()];
    case "css":
      return [(await import("@codemirror/lang-css")).css()];
    case "html":
    case "htm":
    case "svg":
    case "xml":
      return [(await import("@codemirror/lang-html")).html()];
    default:
      return [];
  }
}

type Choice = "overwrite" | "reload" | "cancel";

/** Ask what to do about a file changed on disk since it was opened. */
async function askConflict(path: string): Promise<Choice> {
  let choice: Choice = "cancel";
  const reload = el("button", {
    type: "button",
    class: "btn btn-secondary",
    "data-conflict": "reload",
  }, t("workspace.reloadFromDisk"));
  reload.addEventListener("click", () => {
    choice = "reload";
    reload.closest("dialog")?.querySelector<HTMLButtonElement>('button[value="cancel"]')?.click();
  });
  const ok = await openDialog({
    title: t("workspace.conflictTitle"),
    text: t("workspace.conflictText", { path }),
    content: el("div", { class: "dialog-extra" }, reload),
    confirmLabel: t("workspace.overwrite"),
    cancelLabel: t("common.cancel"),
    tone: "danger",
    name: "save-conflict",
  });
  return ok ? "overwrite" : choice;
}

/** Lines as GET /api/file counts them (lib/workspace/files.ts): a final newline ends a line. */
function lineCount(text: string): number {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * Mount an editor for `file` into `host` (replacing its children). `onState` hears the status
 * line ("Modified", "Saved", errors) so the panel header can show it.
 */
export async function mountEditor(
  host: HTMLElement,
  opts: {
    sessionId: string;
    file: OpenedFile;
    onState?: (text: string, dirty: boolean) => void;
    /** A save went through: the file now has `lines` lines (its size is in the status line). */
    onSaved?: (lines: number) => void;
  },
): Promise<EditorHandle> {
  let file = opts.file;
  let base = file.sha256;
  let saved = file.content;
  const readOnly = !!file.readonly;
  const statusEl = el("span", {
    class: "editor-status",
    role: "status",
    "data-editor-status": true,
  });
  const saveBtn = el(
    "button",
    { type: "button", class: "btn btn-primary btn-sm", "data-editor-save": true, disabled: true },
    t("common.save"),
  );
  const bar = el(
    "div",
    { class: "editor-bar" },
    statusEl,
    readOnly ? null : saveBtn,
  );
  const mountPoint = el("div", { class: "editor-host", "data-editor": true });
  host.replaceChildren(bar, mountPoint);

  const setStatus = (text: string) => {
    statusEl.textContent = text;
    opts.onState?.(text, handle.dirty());
  };

  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    drawSelection(),
    history(),
    indentOnInput(),
    bracketMatching(),
    // Token classes (`tok-keyword`…) coloured by static/panel.css with the theme's own tokens,
    // the same colours as the read-only preview's highlight.js.
    syntaxHighlighting(classHighlighter),
    EditorView.lineWrapping,
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => (void handle.save(), true) },
      ...defaultKeymap,
      ...historyKeymap,
      indentWithTab,
    ]),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      const dirty = handle.dirty();
      saveBtn.disabled = !dirty;
      setStatus(dirty ? t("workspace.editorModified") : t("common.saved"));
    }),
    EditorView.contentAttributes.of({ "aria-label": t("workspace.editPath", { path: file.path }) }),
    ...(await languageOf(file.path)),
  ];
  if (readOnly) extensions.push(EditorState.readOnly.of(true), EditorView.editable.of(false));

  const view = new EditorView({
    state: EditorState.create({ doc: file.content, extensions }),
    parent: mountPoint,
  });

  const replaceDoc = (text: string) => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  };

  async function reload(): Promise<void> {
    file = await api<OpenedFile>(
      "GET",
      `/api/file?session_id=${encodeURIComponent(opts.sessionId)}&path=${
        encodeURIComponent(file.path)
      }`,
    );
    base = file.sha256;
    saved = file.content;
    replaceDoc(file.content);
    saveBtn.disabled = true;
    setStatus(t("workspace.reloadedFromDisk"));
  }

  let saving = false;
  const handle: EditorHandle = {
    dirty: () => view.state.doc.toString() !== saved,
    async save(force = false): Promise<boolean> {
      if (readOnly || saving) return false;
      saving = true;
      saveBtn.disabled = true;
      const content = view.state.doc.toString();
      setStatus(t("workspace.saving"));
      try {
        const r = await api<{ sha256: string; size: number }>("POST", "/api/file/save", {
          session_id: opts.sessionId,
          path: file.path,
          content,
          ...(force ? {} : { expected_sha256: base }),
        });
        base = r.sha256;
        saved = content;
        saveBtn.disabled = !handle.dirty();
        setStatus(t("workspace.savedSize", { size: formatBytes(r.size) }));
        opts.onSaved?.(lineCount(content));
        return true;
      } catch (err) {
        saveBtn.disabled = false;
        if (err instanceof ApiError && err.status === 409) {
          saving = false;
          const choice = await askConflict(file.path);
          if (choice === "overwrite") {
            return await (handle.save as (f: boolean) => Promise<boolean>)(true);
          }
          if (choice === "reload") await reload();
          else setStatus(t("workspace.notSavedConflict"));
          return false;
        }
        setStatus(t("workspace.notSaved", { error: (err as Error).message }));
        return false;
      } finally {
        saving = false;
      }
    },
    destroy() {
      view.destroy();
    },
  };
  saveBtn.addEventListener("click", () => void handle.save());
  setStatus(
    readOnly
      ? t("workspace.readOnlyHead", { count: view.state.doc.lines, size: formatBytes(file.size) })
      : t("common.saved"),
  );
  view.focus();
  return handle;
}
