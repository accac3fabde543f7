// A finished turn reads the same live as after a reload (issue 29): the answer's footer (time,
// tokens, cost) and the header's title. The reader's pointer rests on the answer while it streams
// (so the footer's figures were read mid-run), and the model names the chat after the answer.
// A provider that reports no usage gets an estimated footer ("~… in · ~… out") that says so.
// Screenshots of both footers in the dark and light themes are saved under the run's dir.
// The last test walks every fact the issue lists through one multi-step turn with a regenerate.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page, waitForIslands } from "./browser.ts";
import { type TranscriptFixture, transcriptFixture } from "./transcript_harness.ts";
import type { ScriptedResponse } from "../fixtures/fake_provider.ts";
import { git } from "../git_fixture.ts";

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
      // The title is a second model call, after the answer settles: the default bound.
      await page.locator("[data-topbar-title]", { hasText: TITLE }).waitFor();
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

/** Everything the issue lists as differing live vs reload, read off the page. */
interface Facts {
  /** The top bar's title and the tab's. */
  header: string;
  tab: string;
  /** The sidebar row's title for this chat. */
  sidebar: string;
  /** Each turn's text, whitespace collapsed (footers and the pager read separately). */
  turns: string[];
  /** Each answer's footer (time, tokens, cost), in order. */
  footers: string[];
  /** Which turn (by position) shows the ‹ n/m › pager, and what it says. */
  pager: { turn: number; text: string } | null;
  /** The Activity's interim prose: its rendered HTML tags, and whether raw markdown shows. */
  notes: { tags: string[]; raw: boolean }[];
  /** The workspace panel's git badge. */
  badge: string;
  /** Which turns (by position) offer "Roll back this turn". */
  rollback: number[];
}

async function facts(page: Page, sid: string): Promise<Facts> {
  // Footers fill in on focus (as a keyboard user would reach them): focus each in turn.
  const metas = page.locator(".msg-actions-answer [data-action='meta']");
  const footers: string[] = [];
  for (let i = 0; i < await metas.count(); i++) {
    await metas.nth(i).focus();
    await page.waitForFunction(
      (i) =>
        (document.querySelectorAll(".msg-actions-answer .msg-meta-text")[i]?.textContent ?? "")
          .includes(" · "),
      i,
    );
    footers.push((await metas.nth(i).locator(".msg-meta-text").textContent()) ?? "");
  }
  await page.locator("#composer-input").focus();
  const view = await page.evaluate((sid) => {
    const turns = [...document.querySelectorAll<HTMLElement>(".transcript-inner .turn")];
    const text = (turn: HTMLElement) => {
      const copy = turn.cloneNode(true) as HTMLElement;
      for (const x of copy.querySelectorAll(".msg-meta-text, .msg-variants")) x.remove();
      return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
    };
    const at = turns.findIndex((t) => t.querySelector(".msg-variants:not([hidden])"));
    return {
      header: document.querySelector("[data-topbar-title]")?.textContent ?? "",
      tab: document.title,
      sidebar: document.querySelector(`.session-row[data-session-id="${sid}"] .session-title`)
        ?.textContent ?? "",
      turns: turns.map(text),
      pager: at < 0 ? null : {
        turn: at,
        text: turns[at].querySelector(".msg-variants")!.textContent ?? "",
      },
      notes: [...document.querySelectorAll(".activity-note")].map((n) => ({
        tags: [...n.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()).sort(),
        raw: /`|\*care\*|\]\(/.test(n.textContent ?? ""),
      })),
      badge: document.querySelector("[data-git-badge]")?.textContent ?? "",
      rollback: turns.flatMap((t, i) =>
        t.querySelector('.rollback-btn[data-rollback="turn"]') ? [i] : []
      ),
    };
  }, sid);
  return { ...view, footers };
}

/** Wait (bounded) until the page shows what `ready` expects, then read it. */
async function factsWhen(page: Page, sid: string, ready: (f: Facts) => boolean): Promise<Facts> {
  const until = Date.now() + 10_000;
  let last = await facts(page, sid);
  while (!ready(last) && Date.now() < until) {
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
    last = await facts(page, sid);
  }
  return last;
}

async function reloadedFacts(page: Page, sid: string, ready: (f: Facts) => boolean) {
  await reload(page);
  await page.locator("[data-git-badge]:not([hidden])").waitFor();
  return await factsWhen(page, sid, ready);
}

browserTest(
  "a multi-step turn regenerated, a commit and a rollback: title, footers, pager, Activity prose," +
    " git badge and text read the same live as after a reload",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 900 });
    const { page, h } = f;
    const sid = h.sessionId;
    try {
      h.app.ctx.runs.configure({ autoTitle: true });
      const ws = h.workspace;
      await git(ws, "init", "-q");
      await Deno.writeTextFile(join(ws, "README.md"), "# project\n");
      await git(ws, "add", ".");
      await git(ws, "commit", "-q", "-m", "base");
      await f.open();
      if (!(await page.locator("[data-git-badge]").isVisible())) {
        await page.locator(".topbar [data-action='toggle-workspace']").click();
      }
      await page.locator("[data-git-badge]:not([hidden])").waitFor();

      // The first answer, then the model's title for the chat.
      h.fake.enqueue({
        text: "Hello! What shall we write?",
        usage: { input_tokens: 1_000, output_tokens: 20 },
      }, { text: TITLE });
      await f.send("hello");
      await f.settled();
      // The title is a second model call, after the answer settles: the default bound.
      await page.locator("[data-topbar-title]", { hasText: TITLE }).waitFor();

      // A multi-step turn: interim prose with markdown, a tool call, then the answer. Reported
      // usage over both steps: 13.2k in · 560 out a run.
      const multiStep = (content: string, answer: string): ScriptedResponse[] => [
        {
          text: "Writing `notes.txt` with *care*, see [the guide](https://example.com/guide).",
          toolCalls: [{ name: "write_file", args: { path: "notes.txt", content } }],
          usage: { input_tokens: 6_000, output_tokens: 200 },
        },
        { text: answer, usage: { input_tokens: 7_200, output_tokens: 360 } },
      ];
      h.fake.enqueue(...multiStep("first draft\n", "The notes are written."));
      await f.send("write the notes");
      await f.settled();

      // Regenerate: the page reloads while the new answer is held, so it finishes live.
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      const [step, final] = multiStep("second draft\n", "The notes are written again, better.");
      h.fake.enqueue(step, { ...final, hang: 2, release: held });
      await page.locator(".msg-actions-answer").last().locator("[data-action='regenerate']")
        .click();
      await page.waitForEvent("load");
      await waitForIslands(page);
      await page.locator(".turns-live .turn[data-live]").waitFor();
      // The reader keeps the Activity open (kept per turn, across reloads).
      await page.locator(".turns-live details.activity > summary").click();
      release();
      await f.settled();
      await page.locator(".turns-live .activity-note").waitFor();

      const complete = (x: Facts) =>
        x.pager !== null && x.badge.includes("●1") && x.footers.length === 2;
      const live = await factsWhen(page, sid, complete);
      strictEqual(live.header, TITLE, "the header took the generated title");
      strictEqual(live.sidebar, TITLE, "as the sidebar did");
      // Both runs of the regenerated turn count (lib/sessions/turn_meta.ts): 2 × 13.2k in, 560 out.
      ok(live.footers[1].includes("26.4k in · 1.1k out"), `live footer: ${live.footers[1]}`);
      ok(!live.footers.some((x) => /(^|· )0 in · 0 out/.test(x)), `metered: ${live.footers}`);
      deepStrictEqual(live.pager, { turn: 1, text: live.pager?.text }, "the pager on turn 2");
      ok(/2\s*\/\s*2/.test(live.pager!.text), `pager reads 2/2: ${live.pager!.text}`);
      ok(live.notes.length > 0, "the Activity shows the interim prose");
      for (const note of live.notes) {
        ok(!note.raw, "interim prose shows no raw markdown");
        ok(note.tags.includes("code") && note.tags.includes("em") && note.tags.includes("a"));
      }
      ok(live.turns[1].includes("The notes are written again, better."), live.turns[1]);
      deepStrictEqual(live.rollback, [1], "the turn that wrote a file offers its rollback");
      deepStrictEqual(await reloadedFacts(page, sid, complete), live, "after Regenerate");

      // A commit in the Git tab: the badge clears at once.
      await page.locator("[data-panel-tab='git']").click();
      const view = page.locator(".git-view");
      await view.locator(".git-file[data-path='notes.txt']").getByRole("button", { name: "Stage" })
        .click();
      await view.locator(".git-group[data-group='staged'] .git-file[data-path='notes.txt']")
        .waitFor();
      await view.locator("[data-git='message']").fill("Add the notes");
      await view.locator("[data-git='commit-btn']").click();
      await view.locator(".git-log .git-subject", { hasText: "Add the notes" }).waitFor();
      const clean = (x: Facts) => x.badge !== "" && !x.badge.includes("●") && complete2(x);
      const complete2 = (x: Facts) => x.pager !== null && x.footers.length === 2;
      const committed = await factsWhen(page, sid, clean);
      ok(!committed.badge.includes("●"), `no change left after the commit: ${committed.badge}`);
      deepStrictEqual(await reloadedFacts(page, sid, clean), committed, "after a commit");

      // Rolling the turn back changes the committed file: the badge shows it at once.
      const turn = page.locator(".transcript-inner .turn").last();
      await turn.getByRole("button", { name: "Roll back this turn" }).click();
      const dialog = page.locator(".rollback-dialog");
      await dialog.getByRole("button", { name: "Restore files" }).click();
      await dialog.getByText(/Restored \d file/).waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      const changed = (x: Facts) => x.badge.includes("●") && complete2(x) && !x.rollback.length;
      const rolledBack = await factsWhen(page, sid, changed);
      ok(rolledBack.badge.includes("●1"), `the rollback's change shows: ${rolledBack.badge}`);
      deepStrictEqual(rolledBack.rollback, [], "a rolled-back turn has nothing left to roll back");
      deepStrictEqual(await reloadedFacts(page, sid, changed), rolledBack, "after a rollback");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
