// A long conversation (1,000 turns, a third with tools) opens on its newest turns, under the
// DOM budget of 8,000 elements, without a script having to scroll; scrolling up loads older
// turns above without moving what the reader looks at, as whole turns, in order, none twice.
import { ok, strictEqual } from "node:assert/strict";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages, type NewMessage } from "../../lib/sessions/messages.ts";
import { updateSettings } from "../../lib/settings/settings.ts";
import { browserTest, waitForIslands, withAppInBrowser } from "./browser.ts";
import { domSize } from "./transcript_harness.ts";

const TURNS = 1000;
const DOM_BUDGET = 8000;

function seedMessages(): NewMessage[] {
  const msgs: NewMessage[] = [];
  for (let i = 0; i < TURNS; i++) {
    const turn_id = `turn${i}`;
    msgs.push({ role: "user", content: `Question ${i}: what about item ${i}?`, turn_id });
    if (i % 3 === 0) {
      msgs.push({
        role: "assistant",
        content: `Checking f${i}.ts first.`,
        reasoning: `Item ${i} lives in f${i}.ts; read it.`,
        tool_calls: [{
          id: `c${i}`,
          type: "function",
          function: { name: "read_file", arguments: JSON.stringify({ path: `src/f${i}.ts` }) },
        }],
        turn_id,
      });
      msgs.push({
        role: "tool",
        tool_call_id: `c${i}`,
        name: "read_file",
        content: `1|export const item${i} = ${i};`,
        turn_id,
      });
    }
    msgs.push({
      role: "assistant",
      content: `Answer ${i}: it is **fine**.\n\n- first point\n- second point\n\n\`item${i}\``,
      turn_id,
    });
  }
  return msgs;
}

browserTest(
  "a 1,000-turn session opens under the DOM budget and loads older turns on scroll",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const s = await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace });
      await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, seedMessages());
      // Loading on scroll is the `session_endless_scroll` preference (off: the loader's button).
      await updateSettings(app.ctx, {}, { session_endless_scroll: true });
      const page = await browser.newPage({ width: 1280, height: 860 });
      const t0 = performance.now();
      await page.goto(`${url}/?session=${s.session_id}`);
      await waitForIslands(page);
      console.log(`opened a ${TURNS}-turn session in ${Math.round(performance.now() - t0)} ms`);

      const nodes = await domSize(page);
      ok(nodes < DOM_BUDGET, `${nodes} elements after opening (budget ${DOM_BUDGET})`);
      console.log(`${nodes} elements after opening`);

      // The newest turn is in view: the transcript opens at its end.
      const last = page.locator(".msg-user-bubble").last();
      strictEqual(await last.textContent(), `Question ${TURNS - 1}: what about item ${TURNS - 1}?`);
      const inView = await page.evaluate(() => {
        const s = document.querySelector(".transcript")!.getBoundingClientRect();
        const p = [...document.querySelectorAll(".prose")].at(-1)!.getBoundingClientRect();
        return p.bottom <= s.bottom + 1 && p.top >= s.top - 1;
      });
      ok(inView, "the last answer is visible without scrolling");
      await browser.screenshot(page, "long-session-open");

      const firstShown = async () =>
        Number(
          (await page.locator("#transcript-history .msg-user-bubble").first().textContent())!
            .match(/Question (\d+)/)![1],
        );
      const before = await firstShown();
      ok(
        before > TURNS - 30 && before < TURNS - 5,
        `opens on the last whole turns (from ${before})`,
      );

      // Scroll to the top: older turns load above and the reader's place does not move.
      const anchorTop = await page.evaluate(() => {
        const s = document.querySelector<HTMLElement>(".transcript")!;
        s.scrollTop = -s.scrollHeight;
        return document.querySelector("#transcript-history .turn")!.getBoundingClientRect().top;
      });
      await page.waitForFunction((n) => {
        const b = document.querySelector("#transcript-history .msg-user-bubble")?.textContent;
        return b && Number(b.match(/Question (\d+)/)![1]) < n;
      }, before);
      const anchorAfter = await page.evaluate((n) => {
        const el = [...document.querySelectorAll("#transcript-history .turn")].find((t) =>
          t.querySelector(".msg-user-bubble")?.textContent?.startsWith(`Question ${n}:`)
        )!;
        return el.getBoundingClientRect().top;
      }, before);
      ok(Math.abs(anchorAfter - anchorTop) < 2, `kept in place: ${anchorTop} → ${anchorAfter}`);
      await browser.screenshot(page, "long-session-older");

      // Two more pages: whole turns, in order, none twice, markdown rendered.
      for (let i = 0; i < 2; i++) {
        const top = await firstShown();
        await page.evaluate(() => {
          const s = document.querySelector<HTMLElement>(".transcript")!;
          s.scrollTop = -s.scrollHeight;
        });
        await page.waitForFunction((n) => {
          const b = document.querySelector("#transcript-history .msg-user-bubble")?.textContent;
          return b && Number(b.match(/Question (\d+)/)![1]) < n;
        }, top);
      }
      const numbers = (await page.locator("#transcript-history .msg-user-bubble").allTextContents())
        .map((t) => Number(t.match(/Question (\d+)/)![1]));
      const first = numbers[0];
      strictEqual(numbers.join(","), numbers.map((_, i) => first + i).join(","), "consecutive");
      strictEqual(numbers.at(-1), TURNS - 1);
      const olderTurns = page.locator(".turns-page .turn");
      ok(await olderTurns.count() > 10);
      ok(
        await page.locator(".turns-page .prose ul").count() > 5,
        "older prose is rendered markdown",
      );
      strictEqual(
        await page.locator(".turns-page details.activity > summary").first().textContent(),
        "Activity: 1 tool",
      );
      browser.assertNoErrors();
    });
  },
);
