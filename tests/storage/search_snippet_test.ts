// Sidebar search snippets: plain text (markdown reduced to what a reader sees), centred on the
// matched word, cut only between words — through GET /api/sessions/search and the pure helper.
import { match, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "../helpers.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import { markdownToPlain, searchSnippet } from "../../lib/sessions/search_snippet.ts";

Deno.test("GET /api/sessions/search content snippets are plain text centred on the match", async () => {
  const app = await createTestApp();
  try {
    const { body } = await app.call<{ session: { session_id: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    const sid = body.session.session_id;
    const filler = "Some words before the interesting part of this answer go on and on. ".repeat(8);
    await appendMessages(app.ctx.db, app.ctx.clock, sid, [
      { role: "user", content: "what broke?" },
      {
        role: "assistant",
        content:
          `## Diagnosis\n\n${filler}The **\`kubelet\`** service [crashed](https://x.test/log) ` +
          "because of a *stale* certificate.\n\n| node | state |\n|---|---|\n| a | down |\n" +
          filler,
      },
    ]);
    const res = await app.call<{ sessions: Array<{ match_preview: string; match_type: string }> }>(
      "GET",
      "/api/sessions/search?q=kubelet&content=1",
    );
    strictEqual(res.status, 200);
    const preview = res.body.sessions[0].match_preview;
    strictEqual(res.body.sessions[0].match_type, "content");
    match(preview, /kubelet service crashed/);
    ok(!/[`*#\[\]|]|https:/.test(preview), `no markdown syntax: ${preview}`);
    ok(preview.startsWith("…") && preview.endsWith("…"), preview);
    // Centred: the match sits near the middle, not at an edge.
    const at = preview.indexOf("kubelet");
    ok(at > 8 && at < preview.length - 12, preview);
    ok(preview.length < 70, `about one sidebar row: ${preview}`);
  } finally {
    await app.close();
  }
});

Deno.test("searchSnippet() never cuts the matched word and keeps short texts whole", () => {
  const long = "alpha ".repeat(40) + "extraordinarilylongword " + "omega ".repeat(40);
  const s = searchSnippet(long, "extraordinarily", 30);
  match(s, /(^|\s)extraordinarilylongword(\s|$)/);
  strictEqual(searchSnippet("Fix `a|b` in **main**", "main"), "Fix a|b in main");
  strictEqual(markdownToPlain("- [x] done\n> quoted _text_"), "done quoted text");
});
