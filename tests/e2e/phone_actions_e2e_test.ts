// The conversation on a touch screen (390×844, `hasTouch` + `isMobile`, as a phone reports
// itself): message actions take no room until their message is tapped or a control has focus
// (the last answer's stay), the composer's chips keep readable labels, no keyboard hint is
// shown, every target is at least 24×24 px (axe `target-size`), and user and tool text keep
// their own direction on an Arabic page (brackets in order). Screenshots: /tmp/shots_phone/.
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createSession } from "../../lib/sessions/sessions.ts";
import { browserTest, gotoHydrated, withAppInBrowser } from "./browser.ts";
import type { TestApp } from "../helpers.ts";
import { loadAxe } from "./axe.ts";
import { onPhone } from "./phone.ts";
import { seedChat, toolCallMessage } from "./seed.ts";

const SHOTS = "/tmp/shots_phone";

/** A chat of three settled turns, the first with a tool call whose arguments end in a bracket. */
function threeTurns(app: TestApp): Promise<string> {
  return seedChat(app, "Three turns", [
    { role: "user", content: "Read the upload handler (lib/upload.ts)" },
    toolCallMessage("c1", "read_file", '{"path":"lib/upload.ts"}'),
    { role: "tool", tool_call_id: "c1", content: "export function saveUpload() {}" },
    { role: "assistant", content: "It names files with `Date.now()`." },
    { role: "user", content: "Why does that collide?" },
    { role: "assistant", content: "Two uploads in one millisecond get the same name." },
    { role: "user", content: "Fix it." },
    { role: "assistant", content: "Done: a `-N` suffix until the name is free." },
  ]);
}

/** The row's rendered height: 1 px or less while it is put away. */
function rowHeight(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((el) => el.getBoundingClientRect().height);
}

async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: "disabled" });
}

browserTest("phone: message actions stay out of the way until a tap or focus", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const sid = await threeTurns(app);
    const errors: string[] = [];
    await onPhone(browser, errors, async (page) => {
      strictEqual(
        await page.evaluate(() => matchMedia("(hover: none) and (pointer: coarse)").matches),
        true,
        "the context reports a touch screen",
      );
      await gotoHydrated(page, `${url}/?session=${sid}`);
      const turns = page.locator("#transcript-history .turn");
      strictEqual(await turns.count(), 3);
      const userRow = (i: number) => `#transcript-history .turn >> nth=${i} >> .msg-actions-user`;
      const answerRow = (i: number) =>
        `#transcript-history .turn >> nth=${i} >> .msg-actions-answer`;

      // Put away: every user row and every answer row but the last.
      for (const i of [0, 1, 2]) assert(await rowHeight(page, userRow(i)) <= 1, `user row ${i}`);
      for (const i of [0, 1]) assert(await rowHeight(page, answerRow(i)) <= 1, `answer row ${i}`);
      assert(await rowHeight(page, answerRow(2)) >= 24, "the last answer keeps its actions");
      // Put away means no room: the gap above each user message is the same.
      const gaps = await page.evaluate(() =>
        [...document.querySelectorAll("#transcript-history .turn")].slice(1).map((turn) => {
          const prev = turn.previousElementSibling!;
          const seen = [...prev.children].filter((c) => c.getBoundingClientRect().height > 1);
          const above = seen.at(-1)!.getBoundingClientRect().bottom;
          return Math.round(turn.querySelector(".msg-user-bubble")!.getBoundingClientRect().top) -
            Math.round(above);
        })
      );
      assert(Math.abs(gaps[0] - gaps[1]) <= 1, `gaps above user messages: ${gaps}`);
      await shot(page, "phone-actions-put-away");

      // A tap on the first answer shows its row, whole (every button on screen).
      await page.locator("#transcript-history .turn >> nth=0 >> .msg-assistant").tap();
      await page.waitForFunction(() =>
        document.querySelector("#transcript-history .turn .msg-actions-answer")!
          .getBoundingClientRect().height >= 24
      );
      for (const name of ["copy-answer", "read-aloud", "regenerate", "fork"]) {
        const b = await page.locator(`${answerRow(0)} [data-action="${name}"]`).boundingBox();
        assert(b && b.width >= 24 && b.x >= 0 && b.x + b.width <= 390, `${name} on screen`);
      }
      await shot(page, "phone-actions-tapped");
      // A tap on a user message shows its row and puts the other one away.
      await page.locator("#transcript-history .turn >> nth=1 >> .msg-user-bubble").tap();
      await page.waitForFunction(() =>
        document.querySelectorAll("#transcript-history .msg-actions-user")[1]
          .getBoundingClientRect().height >= 24
      );
      assert(await rowHeight(page, answerRow(0)) <= 1, "the first row went away");

      // Focus brings a row out too (keyboard and switch users): Edit of the third message.
      await page.locator(`${userRow(2)} [data-action="edit-user"]`).focus();
      assert(await rowHeight(page, userRow(2)) >= 24, "a focused row shows");
      deepStrictEqual(errors, []);
    });
  });
});

/** A chat in a deep workspace on a long model id, with a second profile and approvals off: the
 *  crowded bar that squeezed the chips to "wa…" and "/t…". */
async function crowdedChat(app: TestApp): Promise<string> {
  const deep = join(app.workspace, "projects", "customer-portal", "frontend");
  await Deno.mkdir(deep, { recursive: true });
  const { session_id } = await createSession(app.ctx.db, app.ctx.clock, {
    workspace: deep,
    title: "Chips",
    model: "anthropic/claude-sonnet-4.5-thinking",
  });
  strictEqual((await app.call("POST", "/api/profile/create", { name: "research" })).status, 200);
  const yolo = await app.call("POST", "/api/session/yolo", { session_id, enabled: true });
  strictEqual(yolo.status, 200);
  return session_id;
}

browserTest("phone: the composer's chips keep readable labels", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const sid = await crowdedChat(app);
    const errors: string[] = [];
    await onPhone(browser, errors, async (page) => {
      await gotoHydrated(page, `${url}/?session=${sid}`);
      await page.locator("#composer-input").fill("hello");
      const chips = await page.locator(".composer-chip .chip-label").evaluateAll((els) =>
        els.map((el) => {
          const text = el.textContent ?? "";
          // Characters that fit the label's box (monospace: the whole text's width / length),
          // less the one the ellipsis takes.
          const perChar = el.scrollWidth / Math.max(1, text.length);
          const cut = el.scrollWidth > el.clientWidth + 1;
          return { text, seen: cut ? Math.floor(el.clientWidth / perChar) - 1 : text.length };
        })
      );
      strictEqual(
        chips.length,
        4,
        `model, workspace, profile, approvals: ${JSON.stringify(chips)}`,
      );
      for (const c of chips) assert(c.seen >= 4, `"${c.text}" shows only ${c.seen} characters`);
      // Send is still on screen, beside the tools.
      const send = (await page.locator(".btn-send").boundingBox())!;
      assert(send.x + send.width <= 390 && send.y + send.height <= 844, "Send on screen");
      await shot(page, "phone-composer-chips");
      deepStrictEqual(errors, []);
    });
  });
});

browserTest("touch screens show no keyboard hint (phone and tablet)", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const sid = await threeTurns(app);
    const errors: string[] = [];
    for (const size of [{ width: 390, height: 844 }, { width: 820, height: 1180 }]) {
      await onPhone(browser, errors, async (page) => {
        await gotoHydrated(page, `${url}/?session=${sid}`);
        const hint = await page.locator(".composer-hint").evaluate((el) =>
          (el as HTMLElement).innerText.trim()
        );
        assert(!/enter/i.test(hint), `a keyboard hint at ${size.width} px: "${hint}"`);
      }, size);
    }
    // A desktop with a keyboard keeps it.
    const page = await browser.newPage({ width: 1280, height: 800 });
    await gotoHydrated(page, `${url}/?session=${sid}`);
    assert(/enter/i.test(await page.locator(".composer-hint").innerText()), "desktop hint");
    deepStrictEqual(errors, []);
    browser.assertNoErrors();
  });
});

/** axe-core's `target-size` rule (WCAG 2.5.8) on the page, as "rule: element" lines. */
async function targetSizeViolations(page: Page): Promise<string[]> {
  await loadAxe(page);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const res = await axe.run(document, { runOnly: ["target-size"], resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return res.violations.flatMap((v: any) =>
      // deno-lint-ignore no-explicit-any
      v.nodes.map((n: any) => `${v.id} (${v.impact}): ${n.html.slice(0, 160)}`)
    );
  });
}

browserTest(
  "phone: every target of the transcript is 24×24 px or more (axe target-size)",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const sid = await threeTurns(app);
      const errors: string[] = [];
      await onPhone(browser, errors, async (page) => {
        await gotoHydrated(page, `${url}/?session=${sid}`);
        deepStrictEqual(await targetSizeViolations(page), [], "as the page opens");
        // Each user row out in turn, its "Sent …" control before and after its time is filled.
        for (const i of [0, 1, 2]) {
          await page.locator(`#transcript-history .turn >> nth=${i} >> .msg-user-bubble`).tap();
          const sent = page.locator(
            `#transcript-history .turn >> nth=${i} >> .msg-actions-user [data-action="meta"]`,
          );
          await sent.waitFor();
          const box = (await sent.boundingBox())!;
          assert(box.width >= 24 && box.height >= 24, `"Sent at" is ${box.width}×${box.height}`);
          deepStrictEqual(await targetSizeViolations(page), [], `user row ${i} out`);
        }
        deepStrictEqual(errors, []);
      });
    });
  },
);

browserTest(
  "Arabic page: user and tool text keep their own direction (brackets in order)",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      strictEqual((await app.call("POST", "/api/settings", { language: "ar" })).status, 200);
      const sid = await threeTurns(app);
      const page = await browser.newPage({ width: 1280, height: 860 });
      await gotoHydrated(page, `${url}/?session=${sid}`);
      strictEqual(await page.evaluate(() => document.documentElement.dir), "rtl");
      const first = page.locator("#transcript-history .turn").first();
      await first.locator("details.activity > summary").click();
      await first.locator(".tool-card .tool-head").first().click();
      const args = first.locator(".tool-pre").first();
      await args.waitFor();

      // Isolated: each carries its own direction, whatever the page's.
      for (const sel of [".msg-user-bubble", ".tool-target", ".tool-pre", ".tool-result"]) {
        strictEqual(await first.locator(sel).first().getAttribute("dir"), "auto", sel);
      }
      // And it shows: the opening bracket of `{"path":"lib/upload.ts"}` is left of the closing
      // one, and the user's "(lib/upload.ts)" reads left to right.
      /** Where the first `pair[0]` and the last `pair[1]` of the element's text are drawn. */
      const brackets = (el: Element, pair: string[]) => {
        const text = el.firstChild as Text;
        const left = (i: number) => {
          const r = document.createRange();
          r.setStart(text, i);
          r.setEnd(text, i + 1);
          return r.getBoundingClientRect().left;
        };
        const box = el.getBoundingClientRect();
        return {
          open: left(text.data.indexOf(pair[0])) - box.left,
          close: left(text.data.lastIndexOf(pair[1])) - box.left,
          width: box.width,
        };
      };
      // The arguments are pretty-printed JSON: "{" and "}" each open a line, at its left.
      const json = await args.evaluate(brackets, ["{", "}"]);
      assert(
        json.open < 24 && json.close < 24,
        `the tool's brackets start their lines on the left: ${JSON.stringify(json)}`,
      );
      // The bubble's text sits in .msg-user-text (rendered as markdown when that setting is on).
      const said = await first.locator(".msg-user-bubble .msg-user-text").evaluate(brackets, [
        "(",
        ")",
      ]);
      assert(said.open < said.close, `the user's "(…)" reads in order: ${JSON.stringify(said)}`);
      await shot(page, "rtl-tool-preview");
      browser.assertNoErrors();
    });
  },
);
