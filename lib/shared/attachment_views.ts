// Browser-safe: imports nothing from Deno or the database.
// A sent message's attachments as the transcript shows them: the stored file name (which is
// also how GET /api/attachment finds it) and whether it is an image (a thumbnail) — the same
// from a live send (POST /api/upload answers) and from stored history (message `attachments`).

export interface AttachmentView {
  name: string;
  image: boolean;
}

/** Views of an attachments list: strings (paths or names) or upload records. */
export function attachmentViews(list: unknown[] | undefined): AttachmentView[] {
  if (!Array.isArray(list)) return [];
  return list.map((a) => {
    if (typeof a === "string") return { name: a.split("/").pop() || a, image: false };
    const o = (a ?? {}) as Record<string, unknown>;
    const n = o.filename ?? o.name ?? o.path;
    const name = typeof n === "string" ? n.split("/").pop() || n : "attachment";
    const image = o.is_image === true ||
      (typeof o.mime === "string" && o.mime.startsWith("image/") && o.mime !== "image/svg+xml");
    return { name, image };
  });
}

/** Where the console serves one of a session's attachments (inline when it is safe). */
export function attachmentUrl(sessionId: string, name: string): string {
  return `/api/attachment?session_id=${encodeURIComponent(sessionId)}&name=${
    encodeURIComponent(name)
  }`;
}
