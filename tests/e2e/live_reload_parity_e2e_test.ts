// A finished turn reads the same live as after a reload (issue 29): the answer's footer (time,
// tokens, cost) and the header's title. The reader's pointer rests on the answer while it streams
// (so the footer's figures were read mid-run), and the model names the chat after the answer.
// A provider that reports no usage gets an estimated footer ("~… in · ~… out") that says so.
// Screenshots of both footers in the dark and light themes are saved under the run's dir.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands } from "./browser.ts";
import { type TranscriptFixture, transcriptFixture } from "./transcript_harness.ts";
import type { ScriptedResponse } from "../fixtures/fake_provider.ts";

const TITLE = "The Answer To Everything";

interface Seen {
  footer: string;
  label: string;
  header: string;
  tab: string;
}

/** The last answer's footer (filled by focusing it, as a keyboard user would) and the header. */
async function seen(page: Page): Promise<Seen> {
  const meta = page.locator(".msg-actions-answer").last().locator('[data-action="meta"]');
  await meta.focus();
  await page.waitForFunction(() =>
    ([...document.querySelectorAll(".msg-actions-answer .msg-meta-text")].at(-1)?.textContent ??
      "").includes(" · ")
  );
  return {
    footer: (await meta.locator(".msg-meta-text").textContent()) ?? "",
    label: (await meta.getAttribute("aria-label")) ?? "",
    header: (await page.locator("[data-topbar-title]").textContent()) ?? "",
    tab: await page.title(),
  };
}

/**
 * Send `message`, answered by `answer` held after its first deltas: meanwhile the pointer rests
 * on the streaming turn (the footer's figures are read then), then the answer finishes. `then`
 * answers the requests after it (the title).
 */
async function heldTurn(
  f: TranscriptFixture,
  message: string,
  answer: ScriptedResponse,
  ...then: ScriptedResponse[]
) {
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  f.h.fake.enqueue({ ...answer, hang: 2, release: held }, ...then);
  await f.send(message);
  await f.page.locator(".turns-live .turn[data-live] .prose").first().waitFor();
  await f.page.waitForFunction(
    () => {
      document.querySelector(".turns-live .turn[data-live]")
        ?.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
      return performance.getEntriesByType("resource")
        .some((e) => e.name.includes("/api/session/turns"));
    },
    null,
    { polling: 50 },
  );
  release();
  await f.settled();
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await waitForIslands(page);
}

async function shoot(f: TranscriptFixture, name: string): Promise<void> {
  for (const theme of ["dark", "light"] as const) {
    await f.page.evaluate((theme) =>
      globalThis.dispatchEvent(
        new CustomEvent("hermes:theme-change", { detail: { theme, persist: false } }),
      ), theme);
    await f.page.locator(`html[data-theme="${theme}"]`).waitFor({ state: "attached" });
    await f.browser.screenshot(f.page, `usage-footer-${name}-${theme}`);
  }
}

browserTest(
  "a finished turn's footer and header title read the same live as after a reload",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      h.app.ctx.runs.configure({ autoTitle: true });
      await f.open();

      // Reported usage; the model titles the chat once the answer is in.
      await heldTurn(f, "what is the answer", {
        text: "The answer is forty-two, as computed by the machine.",
        usage: { input_tokens: 13_200, output_tokens: 560 },
      }, { text: TITLE });
      const row = page.locator(`.session-row[data-session-id="${h.sessionId}"] .session-title`);
      await row.filter({ hasText: TITLE }).waitFor();
      await page.locator("[data-topbar-title]", { hasText: TITLE }).waitFor({ timeout: 5_000 });
      const live = await seen(page);
      strictEqual(live.header, TITLE, "the header took the generated title, as the sidebar did");
      ok(!/(^|· )0 in · 0 out/.test(live.footer), `not unmetered: ${live.footer}`);
      ok(live.footer.includes("13.2k in · 560 out"), `live footer: ${live.footer}`);
      await shoot(f, "reported");
      await reload(page);
      const again = await seen(page);
      strictEqual(again.footer, live.footer, "the footer reads the same after a reload");
      strictEqual(again.label, live.label);
      strictEqual(again.header, live.header, "the header reads the same after a reload");
      strictEqual(again.tab, live.tab);

      // No usage from the provider: estimated, marked, and the same after a reload.
      await heldTurn(f, "and the question?", {
        text: "Nobody knows the question yet.",
        noUsage: true,
      });
      const estimated = await seen(page);
      ok(/~\S+ in · ~\S+ out/.test(estimated.footer), `estimated footer: ${estimated.footer}`);
      ok(estimated.label.includes("Estimated"), `told why: ${estimated.label}`);
      await shoot(f, "estimated");
      await reload(page);
      const estimatedAgain = await seen(page);
      strictEqual(estimatedAgain.footer, estimated.footer);
      strictEqual(estimatedAgain.label, estimated.label);
      strictEqual(estimatedAgain.header, TITLE);
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
