// A delegated sub-task in the transcript: the `delegate` card in the Activity row carries the
// child run's tool calls as nested cards, live and after a reload (fetched from the hidden
// child session when the card is opened). Quiet metadata, like every tool trace.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

browserTest("a delegate call shows the child's tool calls as nested cards", async () => {
  const t = await transcriptFixture();
  try {
    await Deno.writeTextFile(`${t.h.workspace}/notes.txt`, "hello\n");
    t.h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_del",
          name: "delegate",
          args: { task: "List the workspace and report.", tools: ["list_directory"] },
        }],
      },
      { toolCalls: [{ id: "child_ls", name: "list_directory", args: { path: "." } }] },
      { text: "The workspace holds notes.txt." },
      { text: "A sub-agent found notes.txt." },
    );
    await t.open();
    await t.send("what is in the workspace?");
    await t.settled();

    const openActivity = () =>
      t.page.locator("summary").filter({ hasText: "Activity: 1 tool" }).first().click();
    await openActivity();
    const card = t.page.locator('.tool-card[data-tool="delegate"]');
    await card.waitFor();
    strictEqual(await card.getAttribute("data-status"), "completed");
    const nested = card.locator('.tool-children .tool-card[data-tool="list_directory"]');
    await nested.waitFor();
    strictEqual(await nested.getAttribute("data-status"), "completed");
    strictEqual((await nested.locator(".tool-target").textContent())?.trim(), ".");
    await t.browser.screenshot(t.page, "delegate-nested-live");

    // After a reload the turn is settled history: opening the card loads the child's calls.
    await t.page.reload();
    await t.page.locator('.tool-card[data-tool="delegate"]').first().waitFor({ state: "attached" });
    const details = t.page.locator("details.activity").first();
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await openActivity();
    const settled = t.page.locator('.tool-card[data-tool="delegate"]');
    await settled.locator(".tool-head").click();
    const child = settled.locator('.tool-children .tool-card[data-tool="list_directory"]');
    await child.waitFor();
    strictEqual(await child.getAttribute("data-status"), "completed");
    await child.locator(".tool-head").click();
    await child.locator(".tool-detail").getByText("notes.txt").first().waitFor();
    await t.browser.screenshot(t.page, "delegate-nested-history");
    ok(t.h.fake.chatRequests.length === 4, "parent, child, child, parent");
    t.browser.assertNoErrors();
  } finally {
    await t.close();
  }
});

browserTest(
  "a child's approval shows in the parent's page while its nested card waits",
  async () => {
    const t = await transcriptFixture();
    try {
      await Deno.mkdir(`${t.h.workspace}/build`, { recursive: true });
      t.h.fake.enqueue(
        {
          toolCalls: [{
            id: "call_del",
            name: "delegate",
            args: { task: "Clean the build directory.", tools: ["terminal"] },
          }],
        },
        { toolCalls: [{ id: "child_rm", name: "terminal", args: { command: "rm -rf build/" } }] },
        { text: "Not allowed to clean." },
        { text: "The sub-agent was not allowed to clean the build." },
      );
      await t.open();
      await t.send("clean the build");
      const approval = t.page.locator(".approval-card");
      await approval.waitFor();
      strictEqual(await approval.locator(".approval-command").textContent(), "rm -rf build/");
      await t.page.locator("summary").filter({ hasText: "Activity" }).first().click();
      const nested = t.page.locator(
        '.tool-card[data-tool="delegate"] .tool-children .tool-card[data-tool="terminal"]',
      );
      await t.page.waitForFunction(() =>
        document.querySelector(
          '.tool-card[data-tool="delegate"] .tool-children .tool-card[data-tool="terminal"]',
        )?.getAttribute("data-status") === "awaiting_approval"
      );
      await t.browser.screenshot(t.page, "delegate-nested-approval");
      await approval.locator('[data-choice="deny-open"]').click();
      await approval.locator('[data-choice="deny"]').click();
      await t.settled();
      await t.page.waitForFunction(() =>
        document.querySelector(
          '.tool-card[data-tool="delegate"] .tool-children .tool-card[data-tool="terminal"]',
        )?.getAttribute("data-status") === "denied"
      );
      strictEqual(await nested.count(), 1);
      await Deno.stat(`${t.h.workspace}/build`);
      t.browser.assertNoErrors();
    } finally {
      await t.close();
    }
  },
);
