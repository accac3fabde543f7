// The composer's attachment chips: one per file (name, size, a thumbnail for images, a remove
// button), showing whether it is still uploading or failed and why. Browser-safe: rendered
// inside the Composer island; the island owns the files, this only draws them.
import { Icon } from "./Icon.tsx";
import { formatBytes } from "../lib/browser/composer_state.ts";
import type { DraftAttachment } from "../lib/browser/composer/attachment_tray.ts";
import { t } from "../lib/i18n/t.ts";

export interface AttachmentsProps {
  items: DraftAttachment[];
  onRemove(id: number): void;
}

export function Attachments({ items, onRemove }: AttachmentsProps) {
  if (items.length === 0) return null;
  return (
    <ul class="composer-attachments" aria-label={t("transcript.attachments")}>
      {items.map((a) => (
        <li
          key={a.id}
          class="attachment-chip"
          data-status={a.status}
          title={a.error ? `${a.name}: ${a.error}` : a.name}
        >
          {a.thumb
            ? <img class="attachment-thumb" src={a.thumb} alt="" width={20} height={20} />
            : <Icon name={a.status === "error" ? "alert" : "file"} size={14} />}
          <span class="attachment-name">{a.uploaded?.filename ?? a.name}</span>
          <span class="attachment-meta">
            {a.status === "uploading"
              ? t("transcript.attachmentUploading")
              : a.status === "error"
              ? (a.error ?? t("transcript.attachmentFailed"))
              : formatBytes(a.uploaded?.size ?? a.size)}
          </span>
          <button
            type="button"
            class="attachment-remove"
            aria-label={t("transcript.attachmentRemove", { name: a.name })}
            onClick={() => onRemove(a.id)}
          >
            <Icon name="x" size={12} />
          </button>
        </li>
      ))}
    </ul>
  );
}
