// The Git tab and the rollback buttons in Chromium against the real app and engine: stage one hunk
// of a file from its diff and commit it (only that hunk lands); the fake model writes and patches
// files, one call is undone from its tool card and the whole turn rolled back from the activity
// footer, each through the diff preview dialog. Desktop and phone screenshots.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, waitForIslands } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { git } from "../git_fixture.ts";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

browserTest("git tab: stage one hunk from the diff and commit it", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  try {
    const ws = h.workspace;
    await git(ws, "init", "-q");
    await Deno.writeTextFile(join(ws, "f.txt"), lines(40).join("\n") + "\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "base");
    const edited = lines(40);
    edited[1] = "line 2 EARLY";
    edited[35] = "line 36 LATE";
    await Deno.writeTextFile(join(ws, "f.txt"), edited.join("\n") + "\n");
    await Deno.writeTextFile(join(ws, "new.txt"), "untracked\n");

    await f.open();
    const tab = page.locator("[data-panel-tab='git']");
    if (!(await tab.isVisible())) {
      await page.locator(".topbar [data-action='toggle-workspace']").click();
    }
    await tab.click();
    const view = page.locator(".git-view");
    await view.locator(".git-file[data-path='f.txt'] .git-file-name").click();
    const hunks = view.locator(".git-hunk");
    await hunks.nth(1).waitFor();
    strictEqual(await hunks.count(), 2);
    ok((await hunks.nth(1).textContent())!.includes("+line 36 LATE"));
    await f.browser.screenshot(page, "git-tab-diff");
    await hunks.nth(1).getByRole("button", { name: "Stage hunk" }).click();
    await view.locator(".git-group[data-group='staged'] .git-file[data-path='f.txt']").waitFor();
    await view.locator("[data-git='message']").fill("Only the late change");
    await view.locator("[data-git='commit-btn']").click();
    await view.locator(".git-log .git-subject", { hasText: "Only the late change" }).waitFor();

    const shown = await git(ws, "show", "--format=%s", "HEAD");
    ok(shown.includes("+line 36 LATE"), shown);
    ok(!shown.includes("line 2 EARLY"), "the other hunk stayed out of the commit");
    strictEqual(await Deno.readTextFile(join(ws, "f.txt")), edited.join("\n") + "\n");
    await view.locator(".git-group[data-group='unstaged'] .git-file[data-path='f.txt']").waitFor();
    await f.browser.screenshot(page, "git-tab-committed");
    // The phone layout: the panel slides over; the Git tab still lists and diffs.
    const phone = await f.browser.newPage({ width: 390, height: 844 });
    await phone.goto(`${h.url}/?session=${h.sessionId}`);
    await waitForIslands(phone);
    await phone.locator(".topbar [data-action='toggle-workspace']").click();
    await phone.locator("[data-panel-tab='git']").click();
    await phone.locator(".git-view .git-file[data-path='f.txt'] .git-file-name").click();
    await phone.locator(".git-view .git-hunk").first().waitFor();
    await f.browser.screenshot(phone, "git-tab-phone");
    strictEqual(errors.length, 0, errors.join("\n"));
  } finally {
    await f.close();
  }
});

browserTest(
  "rollback: undo one tool call, then roll back the turn, from the transcript",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      const ws = h.workspace;
      await Deno.writeTextFile(join(ws, "notes.md"), "# Notes\n\nfirst draft\n");
      await f.open();
      await h.fake.enqueue(
        {
          toolCalls: [
            { id: "call_w", name: "write_file", args: { path: "plan.txt", content: "the plan\n" } },
            {
              id: "call_p",
              name: "patch",
              args: { path: "notes.md", old_string: "first draft", new_string: "second draft" },
            },
          ],
        },
        { text: "Wrote the plan and updated the notes." },
      );
      await f.send("Write a plan and update the notes");
      await f.settled();
      strictEqual(await Deno.readTextFile(join(ws, "notes.md")), "# Notes\n\nsecond draft\n");

      const turn = page.locator(".turns-live .turn").last();
      await turn.locator(".activity > summary").click();
      const patchCard = turn.locator(".tool-card[data-tool='patch']");
      await patchCard.locator(".tool-head").click();
      await patchCard.getByRole("button", { name: "Undo this change" }).click();
      const dialog = page.locator(".rollback-dialog");
      await dialog.locator(".rollback-diff").waitFor();
      const diff = (await dialog.locator(".rollback-diff").textContent())!;
      ok(diff.includes("-second draft") && diff.includes("+first draft"), diff);
      await f.browser.screenshot(page, "rollback-undo-preview");
      await dialog.getByRole("button", { name: "Restore files" }).click();
      await dialog.getByText("Restored 1 file.").waitFor();
      strictEqual(await Deno.readTextFile(join(ws, "notes.md")), "# Notes\n\nfirst draft\n");
      strictEqual(
        await Deno.readTextFile(join(ws, "plan.txt")),
        "the plan\n",
        "the other call stays",
      );
      await dialog.getByRole("button", { name: "Close" }).click();

      await turn.getByRole("button", { name: "Roll back this turn" }).click();
      await dialog.locator(".rollback-files").waitFor();
      ok((await dialog.locator(".rollback-files").textContent())!.includes("plan.txt"));
      await page.setViewportSize({ width: 390, height: 844 });
      await f.browser.screenshot(page, "rollback-turn-preview-phone");
      await dialog.getByRole("button", { name: "Restore files" }).click();
      await dialog.getByText(/Restored \d file/).waitFor();
      strictEqual(await Deno.stat(join(ws, "plan.txt")).catch(() => null), null);
      strictEqual(await Deno.readTextFile(join(ws, "notes.md")), "# Notes\n\nfirst draft\n");
    } finally {
      await f.close();
    }
  },
);
