// Browser-safe: imports nothing from Deno or the database.
// The composer's small rules, kept out of the island so they can be tested on their own: which
// key combination sends (the `send_key` setting; the other combination inserts a newline), when
// a paste becomes a file, how attachments are uploaded and shown, and where drafts are kept.
// Invariant: an upload always names its session; the CSRF token rides on it like on api().
import { apiRequest } from "./api_client.ts";
import { formatNumber, t } from "../i18n/t.ts";

/** The `send_key` setting (lib/settings/settings.ts SEND_KEYS). */
export type SendKey = "enter" | "ctrl+enter" | "shift+enter";

/** A paste longer than this many characters is attached as a `.txt` file instead. */
export const LARGE_PASTE_CHARS = 4000;
/** chat/start accepts at most this many attachments per message. */
export const MAX_ATTACHMENTS = 20;

/** The parts of a KeyboardEvent the decision needs (so tests can pass plain objects). */
export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
}

/**
 * What Enter does under `sendKey`: "send", "newline" (let the textarea insert it, or insert
 * one for combinations it ignores) or null (not Enter, or an IME is composing). With "enter",
 * Shift+Enter is the newline; with a modifier setting, plain Enter is. Cmd counts as Ctrl.
 */
export function enterAction(e: KeyLike, sendKey: SendKey): "send" | "newline" | null {
  if (e.key !== "Enter" || e.isComposing || e.altKey) return null;
  const ctrl = e.ctrlKey || e.metaKey;
  switch (sendKey) {
    case "ctrl+enter":
      return ctrl && !e.shiftKey ? "send" : "newline";
    case "shift+enter":
      return e.shiftKey && !ctrl ? "send" : "newline";
    default:
      return !e.shiftKey && !ctrl ? "send" : "newline";
  }
}

/** The footer hint for `sendKey`, e.g. "Enter to send · Shift+Enter for a new line". */
export function sendKeyHint(sendKey: SendKey, mac = false): string {
  const send = sendKeyLabel(sendKey, mac);
  return t("composer.sendKeyHint", {
    send,
    newline: sendKey === "enter" ? "Shift+Enter" : "Enter",
  });
}

/** Short label of the send combination ("Enter", "Ctrl+Enter"), for tooltips. */
export function sendKeyLabel(sendKey: SendKey, mac = false): string {
  if (sendKey === "ctrl+enter") return mac ? "⌘+Enter" : "Ctrl+Enter";
  if (sendKey === "shift+enter") return "Shift+Enter";
  return "Enter";
}

/** `1234` → "1.2 KB": the one size format (lib/shared/byte_size.ts). */
export { formatBytes } from "../shared/byte_size.ts";

/** `/home/ada/src/app` → `~/src/app` when under `home` (the same rule as the top bar). */
export function shortPath(path: string, home: string | null | undefined): string {
  const root = home?.replace(/\/+$/, "");
  if (root && (path === root || path.startsWith(root + "/"))) return "~" + path.slice(root.length);
  return path;
}

/** The last segment of a path, for compact labels (`~/src/app` → `app`). */
export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || trimmed || path;
}

/**
 * A large paste as a text file: `pasted-text-<n>.txt` (numbered per composer so two pastes
 * get distinct names; the server adds `-N` on collision anyway).
 */
export function pastedTextFile(text: string, n: number): File {
  return new File([text], `pasted-text-${n}.txt`, { type: "text/plain" });
}

/** POST /api/upload's answer (API.md "Files and workspace"). */
export interface UploadedFile {
  filename: string;
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
}

/**
 * Upload `file` to the session's attachments (multipart `session_id` + `file`). Errors are
 * ApiErrors carrying the server's sentence (413 over the cap, 404 unknown session).
 */
export function uploadFile(
  sessionId: string,
  file: File,
  init: { signal?: AbortSignal } = {},
): Promise<UploadedFile> {
  const form = new FormData();
  form.append("session_id", sessionId);
  form.append("file", file, file.name);
  return apiRequest<UploadedFile>("POST", "/api/upload", {
    body: form,
    signal: init.signal,
    failure: t("composer.uploadOfFailed", { name: file.name }),
  });
}

/** Storage key of the unsent draft of a chat ("new" before the chat exists). */
export function draftKey(sessionId: string | null): string {
  return `hermes:draft:${sessionId ?? "new"}`;
}

/** The saved draft, or "" (storage disabled or empty). */
export function readDraft(sessionId: string | null): string {
  try {
    return globalThis.localStorage?.getItem(draftKey(sessionId)) ?? "";
  } catch {
    return "";
  }
}

/** Save (or, when blank, forget) the draft of a chat; a full or disabled storage is ignored. */
export function writeDraft(sessionId: string | null, text: string): void {
  try {
    if (text.trim()) globalThis.localStorage?.setItem(draftKey(sessionId), text);
    else globalThis.localStorage?.removeItem(draftKey(sessionId));
  } catch { /* the draft lives as long as the page */ }
}

/**
 * Message `key` split around its `{slot}` argument: the text before and after the element
 * the view puts there (`Type <span>/yolo</span> again`), so translations may move it.
 */
export function textAround(key: string, slot: string): [string, string] {
  const [before, after = ""] = t(key, { [slot]: "\u0000" }).split("\u0000");
  return [before, after];
}

/** `12345` tokens → "12k", `1500` → "1.5k" (the locale's digits); small counts stay exact. */
export function formatTokens(n: number | null | undefined): string {
  const v = Number(n ?? 0);
  const fixed = (x: number, digits: number) =>
    formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (v < 1000) return formatNumber(v);
  if (v < 1_000_000) return `${fixed(v / 1000, v < 10_000 ? 1 : 0)}k`;
  return `${fixed(v / 1_000_000, 1)}M`;
}

/** `0.01234` → "$0.0123" (the locale's way of writing dollars); null → "unknown" (no pricing). */
export function formatCost(cost: number | null | undefined): string {
  if (cost == null || !Number.isFinite(cost)) return t("composer.costUnknown");
  const digits = cost !== 0 && cost < 0.01 ? 4 : 2;
  return formatNumber(cost, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
