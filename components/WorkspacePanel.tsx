// The workspace panel on the right: the open session's files as a lazy tree, a preview of
// the chosen file (code highlighted, markdown rendered, images shown) and a git badge.
// Server-rendered closed or open (the `hermes_panel` cookie), with the root folder already
// listed when it opens on first paint; lib/browser/pages/workspace_panel.ts does the rest. Tree rows
// the browser adds are cloned from the <template>s below, so they match these exactly.
import type { FileEntry } from "../lib/workspace/files.ts";
import { Icon, type IconName } from "./Icon.tsx";
import { t } from "../lib/i18n/t.ts";

export interface WorkspacePanelProps {
  /** The session whose workspace is shown; null on the empty state (nothing to browse yet). */
  sessionId: string | null;
  /** The workspace as shown to the user (home folded to `~`). */
  workspaceLabel: string | null;
  /** Root folder entries when the panel is open on first paint (null: the browser loads them). */
  rootEntries: FileEntry[] | null;
  /** The root folder held more entries than listed. */
  truncated?: boolean;
  /**
   * A new chat (no session yet): the workspace it will use, absolute. The panel lists it
   * (GET /api/list?workspace=) so a new chat's panel is never empty.
   */
  workspace?: string | null;
  /** The width the person dragged the panel to (the `hermes_panel_width` cookie), px. */
  width?: number | null;
}

/** The cookie holding the panel's width (px) the person chose, read for the first paint. */
export const PANEL_WIDTH_COOKIE = "hermes_panel_width";
export const PANEL_MIN_WIDTH = 260;
export const PANEL_MAX_WIDTH = 1200;
/** The width a separator announces before any drag (CSS --panel-width's upper bound; the
 * browser corrects it to the measured width, lib/browser/workspace/panel_resize.ts). */
export const PANEL_DEFAULT_WIDTH = 380;

/** A width from the cookie, clamped; null when absent or not a number. */
export function panelWidthFrom(raw: string | null | undefined): number | null {
  const n = Number(raw);
  if (!raw || !Number.isFinite(n)) return null;
  return Math.round(Math.min(PANEL_MAX_WIDTH, Math.max(PANEL_MIN_WIDTH, n)));
}

/** The panel's views: Files is painted by the server; the others mount on first show. */
export const PANEL_TABS = [
  { id: "files", labelKey: "workspace.tabFiles" },
  { id: "git", labelKey: "workspace.tabGit" },
  { id: "terminal", labelKey: "workspace.tabTerminal" },
] as const;

/** The cookie holding the panel's open state, read by the server for the first paint. */
export const PANEL_COOKIE = "hermes_panel";

/** One tree row. Folders carry an empty group the browser fills on first expand. */
export function TreeItem({ entry, level }: { entry: FileEntry; level: number }) {
  const isDir = entry.type === "dir";
  return (
    <li
      role="treeitem"
      class="tree-item"
      data-path={entry.path}
      data-type={entry.type}
      data-size={entry.size ?? undefined}
      aria-level={level}
      aria-expanded={isDir ? "false" : undefined}
      aria-selected="false"
      tabIndex={-1}
    >
      <span class="tree-row" style={`--level:${level - 1}`}>
        <span class="tree-caret" aria-hidden="true" />
        <Icon name={isDir ? "folder" : "file"} size={14} class="icon tree-icon" />
        <span class="tree-name">{entry.name}</span>
        {/* A mouse affordance for the row's menu; the keyboard has Shift+F10 / the menu key. */}
        <span class="tree-more" data-tree-more aria-hidden="true" title={t("workspace.rowActions")}>
          ⋯
        </span>
      </span>
      {isDir ? <ul role="group" class="tree-group" hidden /> : null}
    </li>
  );
}

const TEMPLATE_ENTRY = (type: FileEntry["type"]): FileEntry => ({
  name: "",
  path: "",
  type,
  size: null,
  mtime: null,
});

/** A panel header's icon-only button; lib/browser/pages/workspace_panel.ts acts on `data-action`. */
function IconButton(
  { action, label, title, icon, size = 16 }: {
    action: string;
    /** What a screen reader announces. */
    label: string;
    /** The tooltip (often shorter). */
    title: string;
    icon: IconName;
    size?: number;
  },
) {
  return (
    <button
      type="button"
      class="btn btn-icon"
      data-action={action}
      aria-label={label}
      title={title}
    >
      <Icon name={icon} size={size} />
    </button>
  );
}

/** The preview of the chosen file (and the editor, which replaces its body on demand). */
function FilePreview() {
  return (
    <section class="file-preview" data-file-preview aria-label={t("workspace.filePreview")} hidden>
      <header class="preview-head">
        <IconButton
          action="preview-close"
          label={t("workspace.backToFiles")}
          title={t("workspace.backToFiles")}
          icon="arrowLeft"
        />
        <span class="preview-path mono" data-preview-path />
        <span class="preview-meta" data-preview-meta />
        <button
          type="button"
          class="btn btn-icon preview-mode"
          data-action="preview-source"
          aria-pressed="false"
          hidden
          title={t("workspace.showSource")}
        >
          <span aria-hidden="true" class="mono">{"</>"}</span>
          <span class="visually-hidden">{t("workspace.showSource")}</span>
        </button>
        <button
          type="button"
          class="btn btn-icon"
          data-action="preview-edit"
          aria-label={t("workspace.editFile")}
          title={t("common.edit")}
          hidden
        >
          <Icon name="edit" size={16} />
        </button>
        <a
          class="btn btn-icon"
          data-preview-download
          href="#"
          download
          aria-label={t("workspace.downloadFile")}
          title={t("common.download")}
        >
          <Icon name="download" size={16} />
        </a>
      </header>
      <div class="preview-body" data-preview-body tabIndex={0} />
    </section>
  );
}

/** The drag handle on the panel's left edge (lib/browser/workspace/panel_resize.ts). */
function PanelResize({ width }: { width: number | null }) {
  return (
    <div
      class="panel-resize"
      data-panel-resize
      role="separator"
      aria-orientation="vertical"
      aria-label={t("workspace.resizePanel")}
      aria-valuemin={PANEL_MIN_WIDTH}
      aria-valuemax={PANEL_MAX_WIDTH}
      aria-valuenow={width ?? PANEL_DEFAULT_WIDTH}
      tabIndex={0}
    />
  );
}

export function WorkspacePanel(
  { sessionId, workspaceLabel, rootEntries, truncated, width, workspace }: WorkspacePanelProps,
) {
  const w = width ? Math.round(width) : null;
  return (
    <aside
      class="workspace-panel"
      id="workspace-panel"
      aria-label={t("workspace.panelLabel")}
      data-session-id={sessionId ?? undefined}
      data-workspace={!sessionId && workspace ? workspace : undefined}
      data-preview="closed"
    >
      {/* i18n-ignore: a CSS rule (the panel's width), not text */}
      {w ? <style>{`.app{--panel-width:${w}px;--panel-width-preview:${w}px}`}</style> : null}
      <PanelResize width={w} />
      <header class="panel-head">
        <span class="panel-root" title={workspaceLabel ?? undefined}>
          <Icon name="folder" size={14} />
          <span class="panel-root-name mono">{workspaceLabel ?? t("workspace.workspace")}</span>
        </span>
        <span class="git-badge mono" data-git-badge hidden />
        <span class="panel-head-actions">
          {sessionId
            ? (
              <IconButton
                action="panel-more"
                label={t("workspace.moreActionsLabel")}
                title={t("common.more")}
                icon="more"
                size={14}
              />
            )
            : null}
          {sessionId
            ? (
              <IconButton
                action="panel-refresh"
                label={t("workspace.refreshFiles")}
                title={t("common.refresh")}
                icon="refresh"
                size={14}
              />
            )
            : null}
          <IconButton
            action="toggle-workspace"
            label={t("workspace.closePanel")}
            title={t("common.close")}
            icon="x"
          />
        </span>
      </header>

      <div class="panel-tabs" role="tablist" aria-label={t("workspace.views")} data-panel-tabs>
        {PANEL_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            class="panel-tab"
            id={`panel-tab-${tab.id}`}
            aria-controls={`panel-view-${tab.id}`}
            aria-selected={tab.id === "files" ? "true" : "false"}
            tabIndex={tab.id === "files" ? 0 : -1}
            data-panel-tab={tab.id}
          >
            {t(tab.labelKey)}
          </button>
        ))}
      </div>

      <div
        class="panel-view"
        role="tabpanel"
        id="panel-view-files"
        aria-labelledby="panel-tab-files"
        data-panel-view="files"
      >
        <div class="panel-files" data-panel-files>
          {!sessionId && workspace
            ? <p class="panel-note" data-new-chat-note>{t("workspace.newChatNote")}</p>
            : null}
          {sessionId || workspace
            ? (
              <ul
                class="file-tree"
                role="tree"
                aria-label={t("workspace.files")}
                data-file-tree
                data-loaded={rootEntries ? "true" : "false"}
              >
                {rootEntries?.map((e) => <TreeItem key={e.path} entry={e} level={1} />)}
              </ul>
            )
            : <p class="panel-empty">{t("workspace.noChatYet")}</p>}
          <p class="panel-empty" data-tree-status hidden={!rootEntries || rootEntries.length > 0}>
            {rootEntries && rootEntries.length === 0 ? t("workspace.folderEmpty") : ""}
          </p>
          {truncated
            ? (
              <p class="panel-note">
                {t("workspace.showingFirst", { count: rootEntries?.length ?? 0 })}
              </p>
            )
            : null}
          {sessionId
            ? <p class="panel-status" data-files-status role="status" aria-live="polite" />
            : null}
        </div>

        <FilePreview />
      </div>

      {PANEL_TABS.filter((tab) => tab.id !== "files").map((tab) => (
        <section
          key={tab.id}
          class="panel-view"
          role="tabpanel"
          id={`panel-view-${tab.id}`}
          aria-labelledby={`panel-tab-${tab.id}`}
          data-panel-view={tab.id}
          hidden
        />
      ))}

      <template data-template="tree-dir">
        <TreeItem entry={TEMPLATE_ENTRY("dir")} level={1} />
      </template>
      <template data-template="tree-file">
        <TreeItem entry={TEMPLATE_ENTRY("file")} level={1} />
      </template>
    </aside>
  );
}
