// The conversation's first paint on the server: whole latest turns rendered to final HTML,
// the running turn folded from its journal (never also in the history), and turns whose run
// failed carrying the error from the journal.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { loadTranscriptPage } from "../lib/server/transcript_page.ts";
import { getSession } from "../lib/sessions/sessions.ts";
import { appendMessages, type NewMessage } from "../lib/sessions/messages.ts";
import { alignedPage, type TranscriptMessage } from "../lib/shared/transcript_model.ts";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";
import { h as jsx } from "preact";
import { renderToString } from "preact-render-to-string";
import { TurnView } from "../components/TurnView.tsx";
import { foldMessages } from "../lib/shared/transcript_model.ts";
import { sql } from "../lib/storage/db.ts";

Deno.test("alignedPage() returns whole turns, widening the page for a long turn", async () => {
  // 0 user, 1–24 one long turn, 25 user, 26 assistant, 27 user, 28 assistant.
  const rows: TranscriptMessage[] = Array.from({ length: 29 }, (_, idx) => ({
    idx,
    role: idx === 0 || idx === 25 || idx === 27 ? "user" : "assistant",
    content: `m${idx}`,
  }));
  const asked: Array<[number | undefined, number]> = [];
  const fetchPage = (before: number | undefined, limit: number) => {
    asked.push([before, limit]);
    const upto = before ?? rows.length;
    return rows.slice(Math.max(0, upto - limit), upto);
  };
  const latest = await alignedPage(fetchPage, undefined, 3);
  deepStrictEqual(latest.messages.map((m) => m.idx), [27, 28], "cut at the user message");
  strictEqual(latest.offset, 27);
  asked.length = 0;
  const older = await alignedPage(fetchPage, 25, 3);
  deepStrictEqual(older.messages.map((m) => m.idx), rows.slice(0, 25).map((m) => m.idx));
  strictEqual(older.offset, 0, "reached the first message");
  deepStrictEqual(asked, [[25, 3], [25, 6], [25, 12], [25, 24], [25, 48]], "doubled until whole");
});

Deno.test("loadTranscriptPage() paints the latest whole turns with final HTML", async () => {
  const h = await startHarness();
  try {
    const msgs: NewMessage[] = [];
    for (let i = 0; i < 20; i++) {
      msgs.push(
        { role: "user", content: `Q${i}` },
        { role: "assistant", content: `Formula $x^${i}$`, reasoning: "think" },
        { role: "assistant", content: `**A${i}**` },
      );
    }
    await appendMessages(h.app.ctx.db, h.app.ctx.clock, h.sessionId, msgs);
    const page = await loadTranscriptPage(
      h.app.ctx,
      await getSession(h.app.ctx.db, h.sessionId),
      10,
    );
    deepStrictEqual(page.turns.map((t) => t.user?.text), ["Q17", "Q18", "Q19"]);
    strictEqual(page.olderBefore, 51, "older turns load before the first shown user message");
    strictEqual(page.turns[2].segments[1].html, "<p><strong>A19</strong></p>\n");
    ok(page.turns[2].segments[0].html!.includes('class="katex"'), "math is final on the server");
    strictEqual(page.math, true);
    strictEqual(page.live, null);
  } finally {
    await h.close();
  }
});

Deno.test("loadTranscriptPage() folds the running turn from its journal and leaves it out of history", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: "Hello there, partial answer", chunkSize: 5, hang: 3 });
    const started = await h.start("Say hello");
    await waitFor(async () => {
      const r = await h.app.ctx.db.get<{ n: number | string }>(
        sql`SELECT count(*) AS n FROM stream_events
            WHERE stream_id = ${started.stream_id} AND event = 'token'`,
      );
      return Number(r?.n) > 0;
    });
    const page = await loadTranscriptPage(h.app.ctx, await getSession(h.app.ctx.db, h.sessionId));
    strictEqual(page.turns.length, 0, "the running turn is not in the settled history");
    ok(page.live, "the run in progress is folded");
    strictEqual(page.live.streamId, started.stream_id);
    strictEqual(page.live.turn.user?.text, "Say hello");
    strictEqual(page.live.turn.key, started.turn_id);
    ok(page.live.seq > 0);
    ok("Hello there, partial answer".startsWith(page.live.turn.segments[0].text));
    ok(page.live.turn.segments[0].html!.startsWith("<p>Hello"));
    await h.call("GET", `/api/chat/cancel?stream_id=${started.stream_id}`);
  } finally {
    await h.close();
  }
});

Deno.test("loadTranscriptPage() shows the error of a turn whose run failed", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ status: 404, error: { message: "model fake-model does not exist" } });
    const started = await h.start("Hi");
    await h.stream(started.stream_id);
    await waitFor(async () => !(await getSession(h.app.ctx.db, h.sessionId)).active_stream_id);
    const page = await loadTranscriptPage(h.app.ctx, await getSession(h.app.ctx.db, h.sessionId));
    strictEqual(page.turns.length, 1);
    const [notice] = page.turns[0].notices;
    strictEqual(notice.kind, "error");
    ok(notice.message.length > 0);
  } finally {
    await h.close();
  }
});

Deno.test("TurnView keeps failures outside the collapsed activity and compression a quiet divider", () => {
  const [turn] = foldMessages([
    { idx: 0, role: "user", content: "Go", turn_id: "t1" },
    {
      idx: 1,
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c1", function: { name: "terminal", arguments: '{"command":"make"}' } }],
    },
    { idx: 2, role: "tool", tool_call_id: "c1", content: "Error: make failed\nline 2" },
    { idx: 3, role: "assistant", content: "It failed." },
  ]);
  turn.segments[0].html = "<p>It failed.</p>";
  const html = renderToString(
    jsx(TurnView, { sessionId: "s", turn, live: true, compression: "compressing" }),
  );
  const divider = html.match(/<div class="compress-divider"[^>]*>(.*?)<\/div>/)!;
  strictEqual(divider[1], "<span>Compressing context</span>", "text only: no caret, no button");
  ok(html.includes("<summary>"), "one disclosure");
  strictEqual(html.match(/<details/g)!.length, 1);
  // The failure is repeated after the (collapsed) details element.
  const after = html.slice(html.indexOf("</details>"));
  ok(
    /class="attention-row" data-status="error".*Failed.*terminal.*make.*Error: make failed/.test(
      after,
    ),
  );
  ok(!after.includes("line 2"), "only the first line of the result");
});
