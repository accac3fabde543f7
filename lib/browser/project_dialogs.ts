// Browser-safe: imports nothing from Deno or the database.
// Project editing in the browser, for the sidebar's chips and row menus: the create/edit
// dialog (name + colour swatches + a custom colour), delete with confirmation, and the
// chip's context menu (rename, recolour, delete). Every call goes through the JSON API; the
// caller refreshes whatever shows projects via the `onChanged` hook.
import { api } from "./api_client.ts";
import { t } from "../i18n/t.ts";
import { el, openDialog, openMenu } from "./ui_menu.ts";

/** Colours offered for projects (any other can be picked with the custom colour field). */
export const PROJECT_COLORS = [
  "#C6AC8F",
  "#86C08B",
  "#7BA7D9",
  "#E0B15D",
  "#F87171",
  "#B59DD9",
  "#6FC2B8",
  "#D98FB0",
  "#9AA5AB",
  "#EAE0D5",
];

/** A project as the sidebar's chips describe it. */
export interface ProjectInfo {
  id: string;
  name: string;
  color: string | null;
}

export interface ProjectHooks {
  /** Something changed on the server: refresh what shows projects. */
  onChanged(): Promise<void>;
  /**
   * A call outside a dialog failed (inside one, the dialog shows the error); `failKey` is the
   * catalog message saying what failed ("Changing the colour failed: {error}").
   */
  onError(err: unknown, failKey: string): void;
}

/** Name + colour fields; `value()` reads them. */
function projectFields(initial: { name: string; color: string | null }) {
  let color = initial.color;
  const name = el("input", {
    type: "text",
    name: "name",
    value: initial.name,
    maxlength: "128",
    required: true,
    autocomplete: "off",
    spellcheck: "false",
    "data-project-name": true,
  });
  const swatches = el("div", {
    class: "menu-swatches",
    role: "radiogroup",
    "aria-label": t("sidebar.colour"),
  });
  const custom = el("input", {
    type: "color",
    class: "visually-hidden",
    "aria-label": t("sidebar.customColour"),
  });
  const customSwatch = el(
    "label",
    { class: "swatch swatch-custom", title: t("sidebar.customColour") },
    el("span", { class: "swatch-plus", "aria-hidden": "true" }, "+"),
    custom,
  );
  const mark = () => {
    for (const b of swatches.querySelectorAll<HTMLElement>("[data-color]")) {
      b.setAttribute("aria-checked", String(b.dataset.color === color));
    }
    const isCustom = color !== null && !PROJECT_COLORS.includes(color);
    customSwatch.toggleAttribute("data-chosen", isCustom);
    customSwatch.style.setProperty("--dot", isCustom ? color : "");
  };
  for (const c of PROJECT_COLORS) {
    const b = el("button", {
      type: "button",
      class: "swatch",
      role: "radio",
      style: `--dot:${c}`,
      "aria-label": c,
      "data-color": c,
    });
    b.addEventListener("click", () => {
      color = c;
      mark();
    });
    swatches.append(b);
  }
  if (color && /^#[0-9a-f]{6}$/i.test(color)) custom.value = color;
  custom.addEventListener("input", () => {
    color = custom.value;
    mark();
  });
  swatches.append(customSwatch);
  mark();
  const node = el(
    "div",
    {},
    el("label", { class: "dialog-field" }, t("common.name"), name),
    el("div", { class: "dialog-field" }, el("span", {}, t("sidebar.colour")), swatches),
  );
  return { node, name, value: () => ({ name: name.value.trim(), color }) };
}

/**
 * Create a project (`project` null) or edit one. `suggestedColor` preselects a colour for a
 * new one; with `moveSessionId`, the new project also receives that session.
 */
export async function openProjectDialog(
  project: ProjectInfo | null,
  hooks: ProjectHooks,
  opts: { suggestedColor?: string; moveSessionId?: string } = {},
): Promise<void> {
  const fields = projectFields({
    name: project?.name ?? "",
    color: project ? project.color : (opts.suggestedColor ?? null),
  });
  await openDialog({
    name: project ? "rename-project" : "create-project",
    title: project ? t("sidebar.editProject") : t("sidebar.newProject"),
    content: fields.node,
    confirmLabel: project ? t("common.save") : t("sidebar.create"),
    initialFocus: fields.name,
    async onConfirm() {
      const { name, color } = fields.value();
      if (!name) throw new Error(t("sidebar.projectNameMissing"));
      if (project) {
        await api("POST", "/api/projects/rename", { project_id: project.id, name, color });
      } else {
        const res = await api<{ project: { project_id: string } }>(
          "POST",
          "/api/projects/create",
          { name, color },
        );
        if (opts.moveSessionId) {
          await api("POST", "/api/session/move", {
            session_id: opts.moveSessionId,
            project_id: res.project.project_id,
          });
        }
      }
      await hooks.onChanged();
    },
  });
}

/** Ask, then delete `project` (its chats are kept, unassigned). */
export async function confirmDeleteProject(
  project: ProjectInfo,
  hooks: ProjectHooks,
): Promise<void> {
  await openDialog({
    name: "delete-project",
    title: t("sidebar.deleteProjectTitle"),
    text: t("sidebar.deleteProjectText", { name: project.name }),
    confirmLabel: t("sidebar.deleteProject"),
    tone: "danger",
    async onConfirm() {
      await api("POST", "/api/projects/delete", { project_id: project.id });
      const url = new URL(location.href);
      if (url.searchParams.get("project") === project.id) {
        // The filter it named no longer exists: show every chat.
        url.searchParams.delete("project");
        location.assign(url.pathname + url.search);
        return;
      }
      await hooks.onChanged();
    },
  });
}

/** The chip's context menu: rename, recolour, delete. */
export function openProjectMenu(
  project: ProjectInfo,
  at: { anchor?: Element; point?: { x: number; y: number } },
  hooks: ProjectHooks,
): void {
  const recolor = async (color: string) => {
    try {
      await api("POST", "/api/projects/rename", { project_id: project.id, color });
      await hooks.onChanged();
    } catch (err) {
      hooks.onError(err, "sidebar.recolorFailed");
    }
  };
  openMenu({
    label: t("sidebar.projectMenu", { name: project.name }),
    ...at,
    items: [
      {
        label: t("sidebar.renameEllipsis"),
        action: "project-rename",
        onSelect: () => void openProjectDialog(project, hooks),
      },
      {
        label: t("sidebar.colour"),
        action: "project-color",
        submenu: PROJECT_COLORS.map((c) => ({
          label: c,
          color: c,
          checked: c.toLowerCase() === project.color?.toLowerCase(),
          onSelect: () => void recolor(c),
        })),
      },
      "separator",
      {
        label: t("sidebar.deleteEllipsis"),
        action: "project-delete",
        danger: true,
        onSelect: () => void confirmDeleteProject(project, hooks),
      },
    ],
  });
}
