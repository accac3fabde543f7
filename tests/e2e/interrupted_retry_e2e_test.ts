// An interrupted turn and the rollback offer in Chromium (issue 29). A server restart mid-answer
// leaves the turn "Interrupted"; its card offers Retry, which runs the turn's message again and
// shows the new answer in its place. "Roll back this turn" is offered only for a turn that
// changed files: not for one whose only command was refused, nor for one whose command changed
// nothing, live and after a reload alike. Screenshots of the card, light and dark, desktop and
// phone, go to the run's screenshot dir (and /tmp/shots_follow when it exists).
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, screenshotThemes, waitForIslands } from "./browser.ts";
import { withTranscriptFixture } from "./transcript_harness.ts";
import type { ScriptedResponse, ScriptedToolCall } from "../fixtures/fake_provider.ts";

const SHOTS = "/tmp/shots_follow";

browserTest("an interrupted turn offers Retry, which runs its message again", async () => {
  await withTranscriptFixture({ width: 1280, height: 800 }, async (f) => {
    const { page, h } = f;
    await f.open();
    h.fake.enqueue({ text: "A first part of the answer that the restart cuts. ", hang: 3 });
    await f.send("explain the plan");
    await page.locator(".turns-live .turn[data-live] .prose").first().waitFor();
    // The page leaves before the server goes (a new one listens on another port).
    await page.goto("about:blank");
    await h.restart();
    await f.open();
    const notice = page.locator(".turn-notice[data-kind='error']", { hasText: "Interrupted" });
    await notice.waitFor();
    const retry = notice.getByRole("button", { name: "Retry" });
    ok(await retry.isVisible(), "the Interrupted card has a Retry button");
    await f.browser.screenshot(page, "interrupted-retry");
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await screenshotThemes(page, SHOTS, `interrupted-retry-${size.width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    h.fake.enqueue({ text: "The whole plan, this time to the end." });
    const asked = h.fake.chatRequests.length;
    await retry.click();
    await page.waitForEvent("load");
    await waitForIslands(page);
    await page.locator(".prose", { hasText: "The whole plan, this time to the end." }).waitFor();
    await page.locator(".turn[data-live]").waitFor({ state: "detached" });
    // The same message ran again: one turn, its user message sent to the model once more.
    strictEqual(await page.locator(".msg-user-bubble", { hasText: "explain the plan" }).count(), 1);
    strictEqual(await page.locator(".turn-notice", { hasText: "Interrupted" }).count(), 0);
    const request = h.fake.chatRequests[asked];
    const messages = (request.body as { messages: Array<{ role: string; content: unknown }> })
      .messages;
    ok(
      JSON.stringify(messages.findLast((m) => m.role === "user")?.content).includes(
        "explain the plan",
      ),
      "Retry sent the turn's user message",
    );
    f.browser.assertNoErrors();
  });
});

browserTest("Roll back this turn is offered only for a turn that changed files", async () => {
  await withTranscriptFixture({ width: 1280, height: 900 }, async (f) => {
    const { page, h } = f;
    await f.open();
    const turnWith = (command: ScriptedToolCall, answer: string): ScriptedResponse[] => [
      { toolCalls: [command] },
      { text: answer },
    ];
    h.fake.enqueue(
      ...turnWith({ name: "terminal", args: { command: "rm -rf /" } }, "That was refused."),
      ...turnWith({ name: "terminal", args: { command: "echo unchanged" } }, "Nothing changed."),
      ...turnWith(
        { name: "write_file", args: { path: "made.txt", content: "new\n" } },
        "A file was made.",
      ),
    );
    for (const message of ["refused", "no change", "a change"]) {
      await f.send(message);
      await f.settled();
    }
    strictEqual(await Deno.readTextFile(join(h.workspace, "made.txt")), "new\n");
    const offered = async () => {
      const turns = page.locator(".transcript-inner .turn");
      await turns.nth(2).locator(".files-changed").waitFor();
      const out: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        const footer = turns.nth(i).locator(".activity-footer [data-rollback='turn']");
        out.push(await footer.count() > 0);
      }
      return out;
    };
    // Live: the ended turns learn from their checkpoints whether they changed anything.
    // (A bounded wait: a page that never learns it fails on the comparison below.)
    await page.waitForFunction(
      () =>
        document.querySelectorAll(".turns-live .activity-footer [data-rollback='turn']").length <=
          1,
      null,
      { timeout: 10_000 },
    ).catch(() => {});
    strictEqual(JSON.stringify(await offered()), "[false,false,true]", "live");
    await page.reload();
    await waitForIslands(page);
    strictEqual(JSON.stringify(await offered()), "[false,false,true]", "after a reload");
    f.browser.assertNoErrors();
  });
});
