// What the page shows live is what a reload shows (issue 29), in Chromium: a multi-step turn (a
// tool call between bits of prose) regenerated while an earlier turn stands above it, then a
// commit in the Git tab and a rollback of the turn. After each, the transcript's text (the
// Activity's interim prose rendered as prose, not raw backticks), the position of the ‹ n/m ›
// variant pager and the workspace panel's git badge are compared with a reload's.
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page, waitForIslands } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { git } from "../git_fixture.ts";

interface Shown {
  /** Each turn's text, whitespace collapsed (the per-hover time and usage left out). */
  turns: string[];
  /** Which turn (by position) shows the variant pager, and what it says. */
  pager: { turn: number; text: string } | null;
  badge: string;
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const turns = [...document.querySelectorAll<HTMLElement>(".transcript-inner .turn")];
    const text = (turn: HTMLElement) => {
      const copy = turn.cloneNode(true) as HTMLElement;
      for (const x of copy.querySelectorAll(".msg-meta-text, .msg-variants")) x.remove();
      return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
    };
    const at = turns.findIndex((t) => t.querySelector(".msg-variants:not([hidden])"));
    return {
      turns: turns.map(text),
      pager: at < 0 ? null : {
        turn: at,
        text: turns[at].querySelector(".msg-variants")!.textContent ?? "",
      },
      badge: document.querySelector("[data-git-badge]")?.textContent ?? "",
    };
  });
}

/** Wait (bounded) until the page shows what `ready` expects, then read it. */
async function settledView(page: Page, ready: (s: Shown) => boolean): Promise<Shown> {
  const until = Date.now() + 10_000;
  let last = await shown(page);
  while (!ready(last) && Date.now() < until) {
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
    last = await shown(page);
  }
  return last;
}

async function reloaded(page: Page): Promise<Shown> {
  await page.reload();
  await waitForIslands(page);
  await page.locator("[data-git-badge]:not([hidden])").waitFor();
  await page.locator(".msg-actions-answer").last().waitFor();
  return await settledView(page, (s) => s.badge !== "" && s.pager !== null);
}

browserTest(
  "a regenerated multi-step turn, a commit and a rollback read the same live as after a reload",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 900 });
    const { page, h } = f;
    try {
      const ws = h.workspace;
      await git(ws, "init", "-q");
      await Deno.writeTextFile(join(ws, "README.md"), "# project\n");
      await git(ws, "add", ".");
      await git(
        ws,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-q",
        "-m",
        "base",
      );
      await f.open();
      if (!(await page.locator("[data-git-badge]").isVisible())) {
        await page.locator(".topbar [data-action='toggle-workspace']").click();
      }
      await page.locator("[data-git-badge]:not([hidden])").waitFor();

      h.fake.enqueue({ text: "Hello! What shall we write?" });
      await f.send("hello");
      await f.settled();

      const multiStep = (content: string, answer: string) => [
        {
          text: "Writing `notes.txt` with *care*, see [the guide](https://example.com/guide).",
          toolCalls: [{ name: "write_file", args: { path: "notes.txt", content } }],
        },
        { text: answer },
      ];
      h.fake.enqueue(...multiStep("first draft\n", "The notes are written."));
      await f.send("write the notes");
      await f.settled();

      // Regenerate: the page reloads while the new answer is still held, so it streams live.
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      const [step, final] = multiStep("second draft\n", "The notes are written again, better.");
      h.fake.enqueue(step, { ...final, hang: 2, release: held });
      await page.locator(".msg-actions-answer").last().locator("[data-action='regenerate']")
        .click();
      await page.waitForEvent("load");
      await waitForIslands(page);
      await page.locator(".turns-live .turn[data-live]").waitFor();
      // The reader keeps the Activity open (the choice is kept per turn, across the reload).
      await page.locator(".turns-live details.activity > summary").click();
      release();
      await f.settled();
      await page.locator(".turns-live .activity-note").waitFor();
      const live = await settledView(page, (s) => s.pager !== null && s.badge.includes("●1"));
      ok(
        await page.locator(".turns-live .activity-note code").count() > 0,
        "the interim prose renders its code span",
      );
      deepStrictEqual(await reloaded(page), live, "after Regenerate: live = reload");

      // A commit in the Git tab: the badge follows at once.
      await page.locator("[data-panel-tab='git']").click();
      const view = page.locator(".git-view");
      await view.locator(".git-file[data-path='notes.txt']").getByRole("button", { name: "Stage" })
        .click();
      await view.locator(".git-group[data-group='staged'] .git-file[data-path='notes.txt']")
        .waitFor();
      await view.locator("[data-git='message']").fill("Add the notes");
      await view.locator("[data-git='commit-btn']").click();
      await view.locator(".git-log .git-subject", { hasText: "Add the notes" }).waitFor();
      const committed = await settledView(page, (s) => !s.badge.includes("●"));
      deepStrictEqual(await reloaded(page), committed, "after a commit: live = reload");

      // Rolling the turn back changes the committed file: the badge shows it.
      const turn = page.locator(".turns-live .turn, #transcript-history .turn").last();
      await turn.getByRole("button", { name: "Roll back this turn" }).click();
      const dialog = page.locator(".rollback-dialog");
      await dialog.getByRole("button", { name: "Restore files" }).click();
      await dialog.getByText(/Restored \d file/).waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      const rolledBack = await settledView(page, (s) => s.badge.includes("●"));
      deepStrictEqual(await reloaded(page), rolledBack, "after a rollback: live = reload");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
