// Browser-safe: imports nothing from Deno or the database.
// The sidebar's actions, loaded on first use by lib/browser/pages/sidebar.ts (so the chat page does
// not pay for menus and dialogs up front): the row menu (rename inline, pin, move to a
// project, archive, duplicate, export, delete with confirmation) and the project chip menu.
// Every change goes through the JSON API; the list is then re-rendered by the server.
import { api } from "./api_client.ts";
import { t } from "../i18n/t.ts";
import { emitHermesEvent } from "../shared/ui_events.ts";
import { el, type MenuEntry, openDialog, openMenu } from "./ui_menu.ts";
import {
  openProjectDialog,
  openProjectMenu,
  PROJECT_COLORS,
  type ProjectInfo,
} from "./project_dialogs.ts";

/** What the actions need from the sidebar script. */
export interface SidebarContext {
  /** Re-render the list from the server (after every action, refused or not). */
  refresh(): Promise<void>;
  /**
   * Tell the user, calmly, that something was refused or failed; `failKey` is the catalog
   * message for a failure that is not the server's refusal ("Renaming failed: {error}").
   */
  reportError(err: unknown, failKey: string): void;
  /** The projects the chips show. */
  projects(): ProjectInfo[];
}

/** Where a menu opens: below an element, or at a pointer position. */
export type MenuAt = { anchor?: Element; point?: { x: number; y: number } };

interface RowInfo {
  id: string;
  title: string;
  pinned: boolean;
  archived: boolean;
  projectId: string | null;
}

function rowInfo(row: HTMLElement): RowInfo {
  return {
    id: row.dataset.sessionId!,
    title: row.dataset.title ?? t("sidebar.untitled"),
    pinned: row.dataset.pinned === "true",
    archived: row.dataset.archived === "true",
    projectId: row.dataset.projectId || null,
  };
}

const activeSessionId = () => new URL(location.href).searchParams.get("session");

/** POST an action for a row (dimmed meanwhile), then refresh; refusals become notices. */
async function act(
  ctx: SidebarContext,
  row: HTMLElement,
  path: string,
  payload: unknown,
  failKey: string,
) {
  row.dataset.busy = "";
  try {
    await api("POST", path, payload);
    return true;
  } catch (err) {
    ctx.reportError(err, failKey);
    return false;
  } finally {
    delete row.dataset.busy;
    // Refused or not, show what the server has now (it may have changed elsewhere too).
    await ctx.refresh();
  }
}

function startRename(ctx: SidebarContext, row: HTMLElement): void {
  const info = rowInfo(row);
  const input = el("input", {
    class: "session-rename",
    type: "text",
    value: info.title,
    maxlength: "80",
    "aria-label": t("sidebar.chatTitle"),
    "data-rename": true,
  });
  row.dataset.renaming = "";
  row.append(input);
  input.focus();
  input.select();
  let done = false;
  const finish = async (save: boolean) => {
    if (done) return;
    done = true;
    const title = input.value.trim();
    if (save && title !== info.title) {
      try {
        const res = await api<{ session: { title: string } }>("POST", "/api/session/rename", {
          session_id: info.id,
          title,
        });
        emitHermesEvent("hermes:session-title", {
          session_id: info.id,
          title: res.session.title,
        });
      } catch (err) {
        ctx.reportError(err, "sidebar.renameFailed");
      }
    }
    input.remove();
    delete row.dataset.renaming;
    await ctx.refresh();
    // Back to the renamed row if the refresh replaced it and focus went with it — not when the
    // person has moved on meanwhile (a slow refresh could land while another row's menu is open).
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!row.isConnected && lost) {
      document.querySelector<HTMLElement>(
        `.session-row[data-session-id="${CSS.escape(info.id)}"] .session-item`,
      )?.focus({ preventScroll: true });
    }
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      void finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      void finish(false);
    }
  });
  input.addEventListener("blur", () => void finish(true));
}

async function confirmDelete(ctx: SidebarContext, row: HTMLElement): Promise<void> {
  const info = rowInfo(row);
  await openDialog({
    name: "delete-session",
    title: t("sidebar.deleteChatTitle"),
    text: t("sidebar.deleteChatText", { title: info.title }),
    confirmLabel: t("common.delete"),
    tone: "danger",
    async onConfirm() {
      await api("POST", "/api/session/delete", { session_id: info.id });
      emitHermesEvent("hermes:sessions-changed", { session_id: info.id, reason: "delete" });
      if (activeSessionId() === info.id) {
        // Back to the empty state; nothing is created until the user sends a message.
        const url = new URL(location.href);
        url.searchParams.delete("session");
        location.assign(url.pathname + url.search);
        return;
      }
      await ctx.refresh();
    },
  });
}

const exportHref = (id: string, format: string) =>
  `/api/session/export?session_id=${encodeURIComponent(id)}&format=${format}`;

/** The row menu of a session (the "…" button or a right-click). */
export function sessionMenu(ctx: SidebarContext, row: HTMLElement, at: MenuAt): void {
  const info = rowInfo(row);
  const move = (projectId: string | null) => () =>
    void act(
      ctx,
      row,
      "/api/session/move",
      { session_id: info.id, project_id: projectId },
      "sidebar.moveFailed",
    );
  const items: MenuEntry[] = [
    { label: t("common.rename"), action: "rename", onSelect: () => startRename(ctx, row) },
    {
      label: info.pinned ? t("sidebar.unpin") : t("sidebar.pin"),
      action: "pin",
      onSelect: () =>
        void act(
          ctx,
          row,
          "/api/session/pin",
          { session_id: info.id, pinned: !info.pinned },
          "sidebar.pinFailed",
        ),
    },
    {
      label: t("sidebar.moveToProject"),
      action: "move",
      submenu: [
        {
          label: t("sidebar.noProject"),
          color: null,
          checked: info.projectId === null,
          onSelect: move(null),
        },
        ...ctx.projects().map((p) => ({
          label: p.name,
          color: p.color,
          checked: p.id === info.projectId,
          action: `move-${p.id}`,
          onSelect: move(p.id),
        })),
        "separator",
        {
          label: t("sidebar.newProjectEllipsis"),
          action: "move-new",
          onSelect: () => void createProject(ctx, info.id),
        },
      ],
    },
    {
      label: info.archived ? t("sidebar.unarchive") : t("sidebar.archive"),
      action: "archive",
      onSelect: () =>
        void act(
          ctx,
          row,
          "/api/session/archive",
          { session_id: info.id, archived: !info.archived },
          "sidebar.archiveFailed",
        ),
    },
    {
      label: t("sidebar.duplicate"),
      action: "duplicate",
      onSelect: () =>
        void act(
          ctx,
          row,
          "/api/session/duplicate",
          { session_id: info.id },
          "sidebar.duplicateFailed",
        ),
    },
    {
      label: t("sidebar.export"),
      action: "export",
      // Format names, the same in every language.
      submenu: [
        // i18n-ignore: a format's name
        { label: "Markdown", action: "export-md", href: exportHref(info.id, "md"), download: true },
        // i18n-ignore: a format's name
        { label: "JSON", action: "export-json", href: exportHref(info.id, "json"), download: true },
        // i18n-ignore: a format's name
        { label: "HTML", action: "export-html", href: exportHref(info.id, "html"), download: true },
      ],
    },
    {
      // A read-only link to a snapshot (lib/browser/share_link.ts, loaded on first use).
      label: t("sidebar.share"),
      action: "share",
      onSelect: () =>
        void import("./share_link.ts").then((m) => m.openShareDialog(info.id, info.title))
          .catch((err) => ctx.reportError(err, "sidebar.shareFailed")),
    },
    "separator",
    {
      label: t("sidebar.deleteEllipsis"),
      action: "delete",
      danger: true,
      onSelect: () => void confirmDelete(ctx, row),
    },
  ];
  row.dataset.menuOpen = "";
  openMenu({
    items,
    label: t("sidebar.optionsFor", { title: info.title }),
    ...at,
    onClose: () => delete row.dataset.menuOpen,
    // A refresh that landed while the menu was open (an earlier rename's) replaced the row:
    // focus goes back to the same chat's "…" in the new list, never to <body>.
    returnFocus: () =>
      document.querySelector<HTMLElement>(
        `.session-row[data-session-id="${CSS.escape(info.id)}"] [data-action='session-menu']`,
      ),
  });
}

/** Create a project; with `moveSessionId`, move that session into it. */
export function createProject(ctx: SidebarContext, moveSessionId?: string): Promise<void> {
  const n = ctx.projects().length;
  return openProjectDialog(null, hooks(ctx), {
    suggestedColor: PROJECT_COLORS[n % PROJECT_COLORS.length],
    moveSessionId,
  });
}

/** The chip's context menu (rename, recolour, delete). */
export function projectMenu(ctx: SidebarContext, chip: HTMLElement, at: MenuAt): void {
  const project = ctx.projects().find((p) => p.id === chip.dataset.projectId);
  if (project) openProjectMenu(project, at, hooks(ctx));
}

const hooks = (ctx: SidebarContext) => ({
  onChanged: () => ctx.refresh(),
  onError: (err: unknown, failKey: string) => ctx.reportError(err, failKey),
});
