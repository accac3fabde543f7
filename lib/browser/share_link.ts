// Browser-safe: imports nothing from Deno or the database.
// Share links from the browser: the "Share…" dialog of a chat (what to include, when the link
// expires, then the link to copy) and copying a link to the clipboard. Loaded on first use by
// the sidebar's row menu and the Control Center's Sharing tab.
import { api } from "./api_client.ts";
import { el, openDialog } from "./ui_menu.ts";
import { t } from "../i18n/t.ts";

interface CreatedShare {
  ok: boolean;
  share: { token: string; url: string; expires_at: number | null };
}

/** The absolute address of a share path (`/share/<token>`) on this console. */
export function shareAddress(path: string): string {
  return new URL(path, location.origin).href;
}

/** Put `text` on the clipboard; false when the browser refused (the caller shows the link). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A tick box in the dialog's field style (a row: box, then its words). */
function checkbox(name: string, label: string): HTMLLabelElement {
  return el(
    "label",
    {
      class: "dialog-field",
      "data-share-option": name,
      style: "flex-direction: row; align-items: baseline",
    },
    el("input", { type: "checkbox", name }),
    el("span", {}, label),
  );
}

/** Ask what to share, create the link, then offer it to copy. */
export async function openShareDialog(sessionId: string, title: string): Promise<void> {
  const tools = checkbox("include_tools", t("share.includeTools"));
  const files = checkbox("include_files", t("share.includeFiles"));
  const expiry = el(
    "select",
    { name: "expires_in_days", "aria-label": t("share.linkExpires") },
    el("option", { value: "" }, t("share.neverExpires")),
    el("option", { value: "1" }, t("share.expiresInDays", { days: 1 })),
    el("option", { value: "7", selected: true }, t("share.expiresInDays", { days: 7 })),
    el("option", { value: "30" }, t("share.expiresInDays", { days: 30 })),
  );
  const content = el(
    "div",
    {},
    tools,
    files,
    el("label", { class: "dialog-field" }, t("share.expiry"), expiry),
  );
  let created: CreatedShare | null = null;
  const ok = await openDialog({
    name: "share-session",
    title: t("share.dialogTitle"),
    text: t("share.dialogText", { title }),
    content,
    confirmLabel: t("share.createLink"),
    initialFocus: expiry,
    async onConfirm() {
      const checked = (l: HTMLLabelElement) => l.querySelector("input")!.checked;
      created = await api<CreatedShare>("POST", "/api/share/create", {
        session_id: sessionId,
        include_tools: checked(tools) || checked(files),
        include_files: checked(files),
        expires_in_days: expiry.value ? Number(expiry.value) : null,
      });
    },
  });
  if (!ok || !created) return;
  const address = shareAddress((created as CreatedShare).share.url);
  const field = el("input", {
    type: "text",
    readonly: true,
    value: address,
    "data-share-url": "",
  });
  await openDialog({
    name: "share-link",
    title: t("share.linkCreated"),
    text: t("share.linkCreatedText"),
    content: el("label", { class: "dialog-field" }, t("share.link"), field),
    confirmLabel: t("share.copyLink"),
    cancelLabel: t("common.done"),
    initialFocus: field,
    async onConfirm() {
      if (!(await copyText(address))) {
        field.select();
        throw new Error(t("share.clipboardRefused"));
      }
    },
  });
}
