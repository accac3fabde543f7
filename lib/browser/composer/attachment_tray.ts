// Browser-safe: imports nothing from Deno or the database.
// The draft's attachments: files picked, dropped or pasted, each uploaded at once to the chat's
// session, shown as chips until the message is sent. Invariants: at most MAX_ATTACHMENTS per
// message; the outcome of an upload is kept by id even while its chip is out of the list (a
// queued message), so taking the message back shows whether the file made it.
import { type Signal, signal } from "@preact/signals";
import { MAX_ATTACHMENTS, type UploadedFile } from "../composer_state.ts";
import { t } from "../../i18n/t.ts";

/** One attachment of the draft, from the moment it is picked until the message is sent. */
export interface DraftAttachment {
  /** Local id (stable across renders). */
  id: number;
  name: string;
  size: number;
  status: "uploading" | "ready" | "error";
  /** The server's sentence when the upload failed (413 over the cap, …). */
  error?: string;
  /** An object URL of the picked image, for the thumbnail (revoked on removal). */
  thumb?: string;
  /** What POST /api/upload answered; sent in chat/start `attachments`. */
  uploaded?: UploadedFile;
}

/** What the tray needs from its surroundings (the composer model wires the real ones). */
export interface TrayDeps {
  /** Uploads `file` to the chat's session (creating the session first when there is none). */
  upload(file: File): Promise<UploadedFile>;
  objectUrl: { create(file: File): string; revoke(url: string): void };
  /** A sentence for an error the person should read. */
  describe(err: unknown): string;
}

export interface AttachmentTray {
  items: Signal<DraftAttachment[]>;
  /** Start uploading `files`; returns the error sentence when some did not fit, else null. */
  add(files: File[]): string | null;
  remove(id: number): void;
  /** Put attachments taken out of the draft back in front, each with its upload's outcome. */
  restore(atts: DraftAttachment[]): void;
  /** Wait for the uploads of `atts`; the uploaded files, or an Error naming the first failure. */
  settle(atts: DraftAttachment[]): Promise<UploadedFile[]>;
  /** `atts` were sent: drop them from the list and free their thumbnails. */
  sent(atts: DraftAttachment[]): void;
}

export function createAttachmentTray(deps: TrayDeps): AttachmentTray {
  const items = signal<DraftAttachment[]>([]);
  const uploads = new Map<number, Promise<void>>();
  /** Upload outcomes by attachment id, read when sending (the list may hold an older copy). */
  const results = new Map<number, { file?: UploadedFile; error?: string }>();
  let nextId = 1;

  const update = (id: number, patch: Partial<DraftAttachment>) =>
    items.value = items.value.map((x) => x.id === id ? { ...x, ...patch } : x);

  function add(files: File[]): string | null {
    const room = MAX_ATTACHMENTS - items.value.length;
    let refused: string | null = null;
    if (files.length > room) {
      refused = t("composer.tooManyAttachments", { max: MAX_ATTACHMENTS });
      files = files.slice(0, Math.max(0, room));
    }
    const added: DraftAttachment[] = files.map((file) => ({
      id: nextId++,
      name: file.name || t("composer.unnamedFile"),
      size: file.size,
      status: "uploading",
      thumb: file.type.startsWith("image/") ? deps.objectUrl.create(file) : undefined,
    }));
    items.value = [...items.value, ...added];
    added.forEach((a, i) => {
      const job = deps.upload(files[i])
        .then((uploaded) => {
          results.set(a.id, { file: uploaded });
          update(a.id, { status: "ready", uploaded });
        })
        .catch((err) => {
          results.set(a.id, { error: deps.describe(err) });
          update(a.id, { status: "error", error: deps.describe(err) });
        })
        .finally(() => uploads.delete(a.id));
      uploads.set(a.id, job);
    });
    return refused;
  }

  function remove(id: number) {
    const gone = items.value.find((a) => a.id === id);
    if (gone?.thumb) deps.objectUrl.revoke(gone.thumb);
    results.delete(id);
    items.value = items.value.filter((a) => a.id !== id);
  }

  function restore(atts: DraftAttachment[]) {
    const list = items.value;
    const back = atts.filter((a) => !list.some((x) => x.id === a.id)).map((a) => {
      const r = results.get(a.id);
      if (r?.file) return { ...a, status: "ready" as const, uploaded: r.file };
      if (r?.error) return { ...a, status: "error" as const, error: r.error };
      return a;
    });
    items.value = [...back, ...list];
  }

  async function settle(atts: DraftAttachment[]): Promise<UploadedFile[]> {
    await Promise.all(atts.map((a) => uploads.get(a.id)));
    const outcomes = atts.map((a) => results.get(a.id) ?? { error: t("composer.uploadFailed") });
    const failed = outcomes.findIndex((r) => !r.file);
    if (failed >= 0) {
      throw new Error(
        t("composer.attachFailed", { name: atts[failed].name, error: outcomes[failed].error }),
      );
    }
    return outcomes.map((r) => r.file!);
  }

  function sent(atts: DraftAttachment[]) {
    for (const a of atts) {
      if (a.thumb) deps.objectUrl.revoke(a.thumb);
      results.delete(a.id);
    }
    items.value = items.value.filter((x) => !atts.some((a) => a.id === x.id));
  }

  return { items, add, remove, restore, settle, sent };
}
