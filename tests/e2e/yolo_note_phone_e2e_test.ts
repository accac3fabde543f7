// Issue 29 leftover: the /yolo note (approvals skipped in this chat) reads as one sentence on a
// phone (390×844): its text wraps as a paragraph beside the warning dot, not as three narrow
// columns (the text before the command, the command, the text after). Screenshots, both themes.
import { ok } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { setSkipApprovals } from "../../lib/approvals/approvals.ts";

browserTest("phone: the /yolo note wraps as one sentence", async () => {
  const f = await transcriptFixture({ width: 390, height: 844 });
  try {
    await setSkipApprovals(f.h.app.ctx.db, f.h.sessionId, true);
    await f.open();
    const note = f.page.locator(".yolo-note");
    await note.waitFor();
    const layout = await note.evaluate((p) => {
      const code = p.querySelector("code")!;
      const range = document.createRange();
      range.selectNodeContents(p);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      const after = document.createRange();
      after.setStartAfter(code);
      after.setEnd(p, p.childNodes.length);
      const afterFirst = [...after.getClientRects()].find((r) => r.width > 0);
      const c = code.getBoundingClientRect();
      return {
        lines: lines.size,
        codeTop: c.top,
        codeRight: c.right,
        afterTop: afterFirst?.top ?? -1,
        afterLeft: afterFirst?.left ?? -1,
        noteWidth: p.getBoundingClientRect().width,
      };
    });
    // The text after the command goes on from the command's own line, as a sentence does.
    ok(
      Math.abs(layout.afterTop - layout.codeTop) < 8,
      `after the command: ${JSON.stringify(layout)}`,
    );
    ok(layout.afterLeft >= layout.codeRight - 1, `to its right: ${JSON.stringify(layout)}`);
    ok(layout.lines <= 4, `a few full lines, not narrow columns: ${JSON.stringify(layout)}`);
    for (const theme of ["dark", "light"] as const) {
      await f.page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
      await f.browser.screenshot(f.page, `yolo-note-phone-${theme}`);
    }
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
