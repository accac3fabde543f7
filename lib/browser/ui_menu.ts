// Browser-safe: imports nothing from Deno or the database.
// Floating UI for page scripts: popup menus (with one level of submenus) and modal dialogs.
// Invariants: built with DOM calls only (text goes in as textContent, never as markup); at
// most one menu tree open at a time; menus stay inside the viewport; keyboard works the WAI
// menu way (arrows, Home/End, Enter/Space, ArrowRight/Left for submenus, Escape, Tab) and
// focus returns to where it was when a menu or dialog closes.

import { t } from "../i18n/t.ts";

/** One menu entry. `onSelect` runs after the menu closed; `submenu` opens beside it. */
export interface MenuItem {
  label: string;
  onSelect?: () => void;
  /** A link item (e.g. a download): activating it follows the link. */
  href?: string;
  /** With `href`: the `download` attribute (true: the server's file name). */
  download?: boolean | string;
  submenu?: MenuEntry[];
  danger?: boolean;
  /** A radio-like item: shows a check when true. */
  checked?: boolean;
  disabled?: boolean;
  /** A colour dot before the label (a project's colour). */
  color?: string | null;
  /** Stable hook for tests: `data-menu-action` on the item. */
  action?: string;
}

export type MenuEntry = MenuItem | "separator" | HTMLElement;

export interface MenuOptions {
  items: MenuEntry[];
  /** Accessible name of the menu. */
  label: string;
  /** Open below this element (right-aligned to it)… */
  anchor?: Element;
  /** …or at this point (a right-click). */
  point?: { x: number; y: number };
  /** Called once when the menu tree closes, however it closes. */
  onClose?: () => void;
  /**
   * Where focus goes back when the element that opened the menu is gone by then (a list
   * refreshed under the open menu replaced it): looked up at close time.
   */
  returnFocus?: () => HTMLElement | null | undefined;
}

type Attrs = Record<string, string | boolean | undefined | null>;

/** Create an element with attributes (false/null/undefined skipped) and text/children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

const MARGIN = 8;

/** A right-to-left page mirrors menus: they open leftwards, and the arrow keys swap. */
const rtl = () => document.documentElement.dir === "rtl";

/** Place a fixed element at (x, y), moved and flipped so it stays inside the viewport. */
function place(node: HTMLElement, x: number, y: number, flipFromY?: number, flipFromX?: number) {
  const w = node.offsetWidth;
  const h = node.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = globalThis.innerHeight;
  let left = x;
  if (left + w > vw - MARGIN) left = flipFromX !== undefined ? flipFromX - w : vw - MARGIN - w;
  let top = y;
  if (top + h > vh - MARGIN) top = flipFromY !== undefined ? flipFromY - h : vh - MARGIN - h;
  node.style.left = `${Math.max(MARGIN, Math.min(left, vw - MARGIN - w))}px`;
  node.style.top = `${Math.max(MARGIN, Math.min(top, vh - MARGIN - h))}px`;
}

interface OpenTree {
  root: HTMLElement;
  menus: HTMLElement[];
  close(restoreFocus: boolean): void;
}

let open: OpenTree | null = null;

/** Close the open menu (if any). */
export function closeMenus(restoreFocus = false): void {
  open?.close(restoreFocus);
}

/** True while a menu is open. */
export function menuIsOpen(): boolean {
  return open !== null;
}

const itemsOf = (menu: HTMLElement) =>
  [...menu.querySelectorAll<HTMLElement>(":scope > [role^='menuitem']")]
    .filter((i) => i.getAttribute("aria-disabled") !== "true");

function focusItem(menu: HTMLElement, index: number): void {
  const items = itemsOf(menu);
  if (items.length === 0) return;
  items[(index + items.length) % items.length].focus();
}

/**
 * Open a menu. Returns a handle to close it. Opening a menu closes the previous one; a
 * click outside, Escape, Tab, scrolling or resizing closes it.
 */
export function openMenu(opts: MenuOptions): { close(): void } {
  closeMenus();
  const returnTo = document.activeElement as HTMLElement | null;
  const menus: HTMLElement[] = [];
  let closed = false;

  const build = (entries: MenuEntry[], label: string, level: number): HTMLElement => {
    const menu = el("div", {
      class: "menu",
      role: "menu",
      "aria-label": label,
      "data-level": String(level),
      tabindex: "-1",
    });
    for (const entry of entries) {
      if (entry === "separator") {
        menu.append(el("div", { class: "menu-sep", role: "separator" }));
        continue;
      }
      if (entry instanceof HTMLElement) {
        menu.append(entry);
        continue;
      }
      const radio = entry.checked !== undefined;
      const attrs: Attrs = {
        class: "menu-item",
        role: radio ? "menuitemradio" : "menuitem",
        "aria-checked": radio ? String(entry.checked) : undefined,
        "aria-disabled": entry.disabled ? "true" : undefined,
        "aria-haspopup": entry.submenu ? "menu" : undefined,
        "aria-expanded": entry.submenu ? "false" : undefined,
        "data-danger": entry.danger || undefined,
        "data-menu-action": entry.action,
        tabindex: "-1",
      };
      const parts = [
        radio
          ? el(
            "span",
            { class: "menu-item-check", "aria-hidden": "true" },
            entry.checked ? "✓" : "",
          )
          : null,
        entry.color !== undefined
          ? el("span", {
            class: entry.color ? "project-dot" : "project-dot project-dot-none",
            style: entry.color ? `--dot:${entry.color}` : undefined,
            "aria-hidden": "true",
          })
          : null,
        el("span", { class: "menu-item-label" }, entry.label),
      ];
      const item = entry.href && !entry.disabled
        ? el("a", {
          ...attrs,
          href: entry.href,
          download: entry.download === true ? "" : entry.download || undefined,
        }, ...parts)
        : el("button", { ...attrs, type: "button" }, ...parts);
      if (entry.submenu) item.classList.add("menu-item-more");
      item.addEventListener("click", (e) => {
        if (entry.disabled) {
          e.preventDefault();
          return;
        }
        if (entry.submenu) {
          e.preventDefault();
          openSub(item, entry, level);
          return;
        }
        if (!entry.href) e.preventDefault();
        // A link follows its href; close after the browser has taken it.
        if (entry.href) setTimeout(() => close(true), 0);
        else close(true);
        entry.onSelect?.();
      });
      item.addEventListener("mouseenter", () => {
        item.focus({ preventScroll: true });
        if (entry.submenu) openSub(item, entry, level);
        else closeSubsAbove(level);
      });
      menu.append(item);
    }
    menu.addEventListener("keydown", (e) => onKey(e, menu, level));
    return menu;
  };

  const closeSubsAbove = (level: number) => {
    while (menus.length > level + 1) {
      const sub = menus.pop()!;
      sub.remove();
    }
    for (const i of menus[level]?.querySelectorAll("[aria-expanded='true']") ?? []) {
      i.setAttribute("aria-expanded", "false");
    }
  };

  const openSub = (item: HTMLElement, entry: MenuItem, level: number, focusFirst = false) => {
    if (item.getAttribute("aria-expanded") === "true") {
      if (focusFirst) focusItem(menus[level + 1], 0);
      return;
    }
    closeSubsAbove(level);
    const sub = build(entry.submenu!, entry.label, level + 1);
    document.body.append(sub);
    menus.push(sub);
    item.setAttribute("aria-expanded", "true");
    const r = item.getBoundingClientRect();
    const parent = menus[level].getBoundingClientRect();
    if (rtl()) {
      // Beside the parent on the left; on the right when the left has no room.
      const x = parent.left - 2 - sub.offsetWidth;
      place(sub, x < MARGIN ? parent.right + 2 : x, r.top - 4);
    } else place(sub, parent.right + 2, r.top - 4, undefined, parent.left - 2);
    if (focusFirst) focusItem(sub, 0);
  };

  const onKey = (e: KeyboardEvent, menu: HTMLElement, level: number) => {
    const items = itemsOf(menu);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const current = items[at];
    // In a right-to-left page the submenus open leftwards: ArrowLeft goes in, ArrowRight out.
    const key = rtl() && e.key === "ArrowLeft"
      ? "ArrowRight"
      : rtl() && e.key === "ArrowRight"
      ? "ArrowLeft"
      : e.key;
    switch (key) {
      case "ArrowDown":
        focusItem(menu, at + 1);
        break;
      case "ArrowUp":
        focusItem(menu, at < 0 ? -1 : at - 1);
        break;
      case "Home":
        focusItem(menu, 0);
        break;
      case "End":
        focusItem(menu, -1);
        break;
      case "ArrowRight":
        if (current?.getAttribute("aria-haspopup") === "menu") current.click();
        if (current?.getAttribute("aria-haspopup") === "menu") focusItem(menus[level + 1], 0);
        break;
      case "ArrowLeft":
      case "Escape":
        if (level > 0) {
          const owner = menus[level - 1].querySelector<HTMLElement>("[aria-expanded='true']");
          closeSubsAbove(level - 1);
          owner?.focus();
        } else if (e.key === "Escape") close(true);
        else return;
        break;
      case " ":
        if (current instanceof HTMLAnchorElement) current.click();
        else return;
        break;
      case "Tab":
        close(false);
        return;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  const onPointer = (e: Event) => {
    if (!menus.some((m) => m.contains(e.target as Node))) close(false);
  };
  const onViewport = (e: Event) => {
    if (e.type === "scroll" && menus.some((m) => m.contains(e.target as Node))) return;
    close(false);
  };

  function close(restoreFocus: boolean) {
    if (closed) return;
    closed = true;
    for (const m of menus) m.remove();
    menus.length = 0;
    document.removeEventListener("pointerdown", onPointer, true);
    globalThis.removeEventListener("resize", onViewport);
    document.removeEventListener("scroll", onViewport, true);
    if (open === tree) open = null;
    if (restoreFocus) {
      const back = returnTo?.isConnected ? returnTo : opts.returnFocus?.();
      back?.focus({ preventScroll: true });
    }
    opts.onClose?.();
  }

  const root = build(opts.items, opts.label, 0);
  document.body.append(root);
  menus.push(root);
  if (opts.anchor) {
    const r = opts.anchor.getBoundingClientRect();
    // Aligned to the anchor's inline end: its right edge, or its left one right-to-left.
    const x = rtl() ? r.left : r.right - root.offsetWidth;
    place(root, x, r.bottom + 4, r.top - 4);
  } else {
    const p = opts.point ?? { x: MARGIN, y: MARGIN };
    const x = rtl() ? Math.max(MARGIN, p.x - root.offsetWidth) : p.x;
    place(root, x, p.y, p.y);
  }
  focusItem(root, 0);
  const tree: OpenTree = { root, menus, close };
  open = tree;
  document.addEventListener("pointerdown", onPointer, true);
  globalThis.addEventListener("resize", onViewport);
  document.addEventListener("scroll", onViewport, true);
  return { close: () => close(false) };
}

export interface DialogOptions {
  title: string;
  /** A sentence under the title (plain text). */
  text?: string;
  /** Form fields or other content between the text and the buttons. */
  content?: Node;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: "primary" | "danger";
  /**
   * Runs on confirm. Throw to keep the dialog open: the error's message is shown in it
   * (e.g. the server refused a name).
   */
  onConfirm?: () => Promise<void> | void;
  /** Element focused on open (default: the first field, else Cancel when destructive, else confirm). */
  initialFocus?: HTMLElement;
  /** Stable hook for tests: `data-dialog` on the <dialog>. */
  name?: string;
}

/**
 * A modal dialog (native <dialog>: focus is trapped, Escape cancels). Resolves true once
 * confirmed (and `onConfirm` succeeded), false when cancelled. Focus returns afterwards.
 */
export function openDialog(opts: DialogOptions): Promise<boolean> {
  closeMenus();
  const returnTo = document.activeElement as HTMLElement | null;
  const titleId = `dialog-title-${Math.random().toString(36).slice(2, 8)}`;
  const error = el("p", { class: "dialog-error", role: "alert" });
  const cancel = el(
    "button",
    { type: "button", class: "btn btn-secondary", value: "cancel" },
    opts.cancelLabel ?? t("common.cancel"),
  );
  const confirm = el(
    "button",
    {
      type: "submit",
      class: `btn ${opts.tone === "danger" ? "btn-danger" : "btn-primary"}`,
      "data-dialog-confirm": true,
    },
    opts.confirmLabel,
  );
  const form = el(
    "form",
    { method: "dialog" },
    el("h2", { class: "dialog-title", id: titleId }, opts.title),
    opts.text ? el("p", { class: "dialog-text" }, opts.text) : null,
    opts.content ?? null,
    error,
    el("div", { class: "dialog-actions" }, cancel, confirm),
  );
  const dialog = el("dialog", {
    class: "dialog",
    "aria-labelledby": titleId,
    "data-dialog": opts.name,
  }, form);
  document.body.append(dialog);

  return new Promise<boolean>((resolve) => {
    let busy = false;
    const finish = (ok: boolean) => {
      if (dialog.open) dialog.close();
      dialog.remove();
      if (returnTo?.isConnected) returnTo.focus({ preventScroll: true });
      resolve(ok);
    };
    cancel.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      if (!busy) finish(false);
    });
    dialog.addEventListener("click", (e) => {
      // A click on the backdrop lands on the <dialog> itself.
      if (e.target === dialog && !busy) finish(false);
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (busy) return;
      busy = true;
      confirm.disabled = true;
      error.textContent = "";
      try {
        await opts.onConfirm?.();
        finish(true);
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
        busy = false;
        confirm.disabled = false;
      }
    });
    dialog.showModal();
    // A destructive question starts on Cancel, so a stray Enter does not destroy anything.
    const first = opts.initialFocus ??
      form.querySelector<HTMLElement>("input, textarea, select") ??
      (opts.tone === "danger" ? cancel : confirm);
    first.focus();
  });
}
