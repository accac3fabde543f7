// GET /api/share/<token> → {share: {title, messages: [{role, content}], message_count,
// created_at, expires_at, turns}}: the original's JSON form of a share link, the same frozen
// snapshot the page at /share/<token> shows (lib/sharing/shares.ts), public like that page.
// `messages` is the original's flat user/assistant list (assistant prose joined, tools left out);
// `turns` is the snapshot as taken, tools only when the share includes them. Unknown, malformed,
// revoked and expired tokens are the same 404; never cached, never indexed.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { readSharedSnapshot } from "../../../lib/sharing/shares.ts";
import type { ShareSnapshot } from "../../../lib/sharing/share_snapshot.ts";

const HEADERS = { "cache-control": "no-store", "x-robots-tag": "noindex, nofollow" };

function flatMessages(snapshot: ShareSnapshot): Array<{ role: string; content: string }> {
  const out: Array<{ role: string; content: string }> = [];
  for (const turn of snapshot.turns) {
    if (turn.user?.text.trim()) out.push({ role: "user", content: turn.user.text });
    const prose = turn.segments.filter((s) => s.trim()).join("\n\n");
    if (prose) out.push({ role: "assistant", content: prose });
  }
  return out;
}

export const handler: Handlers = {
  async GET(_req, { app, params }) {
    const found = await readSharedSnapshot(app.db, app.clock, params.token ?? "");
    if (!found) return json({ error: "Shared conversation not found" }, 404, HEADERS);
    const messages = flatMessages(found.snapshot);
    return json(
      {
        share: {
          title: found.snapshot.title,
          messages,
          message_count: messages.length,
          created_at: found.share.created_at,
          expires_at: found.share.expires_at,
          turns: found.snapshot.turns,
        },
      },
      200,
      HEADERS,
    );
  },
};
