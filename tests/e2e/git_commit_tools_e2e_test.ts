// The Git tab's commit tools in Chromium against the real app and the OpenAI-compatible fake
// model: tick a file, "Write message" fills the box from that file's diff (the model's reply),
// "Commit selected" commits only it (the staged file stays staged); switching branch with
// changes asks, then parks them in a stash.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { git } from "../git_fixture.ts";

browserTest("git tab: write a message for the ticked file and commit only it", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  try {
    const ws = h.workspace;
    await git(ws, "init", "-q");
    await Deno.writeTextFile(join(ws, "a.txt"), "alpha\n");
    await Deno.writeTextFile(join(ws, "b.txt"), "beta\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "base");
    await git(ws, "branch", "other");
    await Deno.writeTextFile(join(ws, "a.txt"), "alpha\nALPHA TWO\n");
    await Deno.writeTextFile(join(ws, "b.txt"), "beta\nBETA TWO\n");
    await git(ws, "add", "b.txt");

    await f.open();
    const tab = page.locator("[data-panel-tab='git']");
    if (!(await tab.isVisible())) {
      await page.locator(".topbar [data-action='toggle-workspace']").click();
    }
    await tab.click();
    const view = page.locator(".git-view");
    const commitSelected = view.locator("[data-git='commit-selected-btn']");
    await view.locator(".git-group[data-group='unstaged'] .git-file[data-path='a.txt']").waitFor();
    strictEqual(await commitSelected.isDisabled(), true, "nothing ticked yet");

    await view.getByRole("checkbox", { name: "Select a.txt" }).first().check();
    strictEqual(await commitSelected.textContent(), "Commit selected (1)");
    h.fake.enqueue({ text: "Add a second alpha line" });
    await view.getByRole("button", { name: "Write message" }).click();
    const message = view.locator("[data-git='message']");
    await page.waitForFunction(
      () =>
        (document.querySelector("[data-git='message']") as HTMLTextAreaElement | null)?.value !==
          "",
    );
    strictEqual(await message.inputValue(), "Add a second alpha line");
    const prompt = JSON.stringify(h.fake.chatRequests.at(-1)!.body);
    ok(prompt.includes("+ALPHA TWO"), prompt);
    ok(!prompt.includes("BETA TWO"), "the staged, unticked file stayed out of the prompt");
    await f.browser.screenshot(page, "git-tab-message-written");

    await commitSelected.click();
    await view.locator(".git-log .git-subject", { hasText: "Add a second alpha line" }).waitFor();
    strictEqual((await git(ws, "show", "--name-only", "--format=", "HEAD")).trim(), "a.txt");
    strictEqual((await git(ws, "diff", "--cached", "--name-only")).trim(), "b.txt");
    await view.locator(".git-group[data-group='staged'] .git-file[data-path='b.txt']").waitFor();
    strictEqual(await commitSelected.isDisabled(), true, "the tick went with the commit");
    await f.browser.screenshot(page, "git-tab-committed-selected");

    // Switching branch with b.txt changed: the page asks, then parks it in a stash.
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.accept();
    });
    await view.locator("[data-git='branch']").selectOption("other");
    await page.waitForFunction(() =>
      !document.querySelector(".git-view .git-file[data-path='b.txt']")
    );
    ok(asked.includes("other"), asked);
    strictEqual(await view.locator("[data-git='branch']").inputValue(), "other");
    strictEqual((await git(ws, "branch", "--show-current")).trim(), "other");
    ok((await git(ws, "stash", "list")).includes("branch switch to other"));
    strictEqual(errors.length, 0, errors.join("\n"));
  } finally {
    await f.close();
  }
});
