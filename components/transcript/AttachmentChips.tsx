// The attachments of a sent message: a chip per file (an image gets its thumbnail), each a
// link that opens the file (GET /api/attachment) in a new tab. The same live and after reload.
import { attachmentUrl, type AttachmentView } from "../../lib/shared/attachment_views.ts";
import { t } from "../../lib/i18n/t.ts";

export function AttachmentChips(
  { sessionId, files }: { sessionId: string; files: AttachmentView[] },
) {
  if (!files.length) return null;
  return (
    <span class="msg-attachments">
      {files.map((f, i) => {
        const url = attachmentUrl(sessionId, f.name);
        return (
          <a
            class="msg-attachment"
            data-image={f.image ? "" : undefined}
            key={i}
            href={url}
            target="_blank"
            rel="noopener"
            title={t("transcript.attachmentOpen", { name: f.name })}
          >
            {f.image ? <img class="msg-attachment-thumb" src={url} alt="" loading="lazy" /> : null}
            <span class="msg-attachment-name">{f.name}</span>
          </a>
        );
      })}
    </span>
  );
}
