// Approval and clarify cards in Chromium against the real engine: the agent asks to run
// dangerous commands and the user answers from the card with each choice (once, for the
// session, always, deny with a reason); a pending card survives a reload; a card answered
// elsewhere clears itself instead of dead-ending; a clarifying question is answered by a
// choice button. Fails on any console error (except the one 409 a stale card provokes).
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const terminal = (command: string) => ({ name: "terminal", args: { command } });

browserTest("an approval is answered from its card with each of the four choices", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await Deno.mkdir(join(h.workspace, "build"));
    await Deno.writeTextFile(join(h.workspace, "notes.txt"), "keep me\n");
    await f.open();
    const card = page.locator(".approval-card");
    const respond: unknown[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/approval/respond")) respond.push(r.postDataJSON());
    });

    await h.fake.enqueue({ toolCalls: [terminal("rm -rf build/")] }, { text: "Removed it." });
    await f.send("Clean the build folder");
    await card.waitFor();
    strictEqual(await card.locator(".approval-command").textContent(), "rm -rf build/");
    strictEqual(await card.locator(".approval-desc").textContent(), "Recursive delete (rm -r)");
    strictEqual(await card.locator(".approval-count").textContent(), "1 pending");
    await f.browser.screenshot(page, "approval-card");
    await page.setViewportSize({ width: 390, height: 800 });
    await f.browser.screenshot(page, "approval-card-phone");
    await page.setViewportSize({ width: 1280, height: 860 });
    // "Allow once" has the focus: Enter answers.
    await page.keyboard.press("Enter");
    await f.settled();
    strictEqual(await card.count(), 0, "the card is gone once answered");
    const exists = await Deno.stat(join(h.workspace, "build")).then(() => true, () => false);
    strictEqual(exists, false, "the command ran");
    strictEqual(
      await page.locator(".turns-live .turn").last().locator(".attention-row").count(),
      0,
    );

    await h.fake.enqueue(
      { toolCalls: [terminal("find . -name '*.tmp' -delete")] },
      { toolCalls: [terminal("find . -name '*.bak' -delete")] },
      { text: "Both cleaned." },
    );
    await f.send("Delete temp and backup files");
    await card.waitFor();
    await card.locator('[data-choice="session"]').click();
    // The second find -delete is covered by the session grant: no second card, the run ends.
    await f.settled();
    strictEqual(await card.count(), 0);

    await h.fake.enqueue({ toolCalls: [terminal("chmod 777 notes.txt")] }, { text: "Done." });
    await f.send("Make notes.txt writable for everyone");
    await card.waitFor();
    await card.locator('[data-choice="always"]').click();
    await f.settled();
    const config = await Deno.readTextFile(join(h.root, "config.yaml"));
    // Issue 14: "always" covers this exact command in this workspace, not the category.
    ok(config.includes("command: chmod 777 notes.txt"), "always: the exact command is saved");
    ok(!config.includes("chmod_world_writable"), "always: the category is not allowlisted");

    await h.fake.enqueue({ toolCalls: [terminal("rm -rf src/")] }, {
      text: "Understood, kept it.",
    });
    await f.send("Remove src");
    await card.waitFor();
    await card.locator('[data-choice="deny-open"]').click();
    await card.locator(".approval-reason").fill("Keep the sources, they are not generated");
    await f.browser.screenshot(page, "approval-deny-reason");
    await card.locator('[data-choice="deny"]').click();
    await f.settled();
    const last = page.locator(".turns-live .turn").last();
    strictEqual(await last.locator(".attention-row").count(), 1, "the refusal is visible");
    strictEqual(await last.locator(".attention-label").textContent(), "Not run");
    const toolMsg = h.fake.chatRequests.at(-1)!.body.messages.filter((m: { role: string }) =>
      m.role === "tool"
    ).at(-1);
    ok(
      JSON.stringify(toolMsg).includes("Keep the sources, they are not generated"),
      "the agent read the reason",
    );
    await f.browser.screenshot(page, "approval-all-choices");

    strictEqual(respond.length, 4);
    const choices = respond.map((b) => (b as { choice: string }).choice);
    strictEqual(choices.join(","), "once,session,always,deny");
    strictEqual(
      (respond[3] as { message?: string }).message,
      "Keep the sources, they are not generated",
    );
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("a pending approval survives a reload, and a stale card clears itself", async () => {
  const f = await transcriptFixture({ env: { HERMES_WEBUI_TEST_HOOKS: "1" } });
  const { page, h } = f;
  try {
    await f.open();
    await h.fake.enqueue({ toolCalls: [terminal("rm -rf dist/")] }, { text: "Gone." });
    await f.send("Remove dist");
    const card = page.locator(".approval-card");
    await card.waitFor();
    await page.reload();
    await card.waitFor();
    strictEqual(await card.locator(".approval-command").textContent(), "rm -rf dist/");
    strictEqual(await page.locator(".turns-live .msg-user-bubble").textContent(), "Remove dist");
    await page.waitForFunction(() =>
      [...document.querySelectorAll("hermes-island")].every((el) =>
        el.hasAttribute("data-hydrated")
      )
    );
    await card.locator('[data-choice="once"]').click();
    await f.settled();
    strictEqual(await card.count(), 0);
    strictEqual(
      (await page.locator(".turns-live .prose").last().textContent())!.trim(),
      "Gone.",
    );

    // A queued approval nobody waits on, answered from elsewhere while the card shows.
    await h.call(
      "GET",
      `/api/approval/inject_test?session_id=${h.sessionId}&pattern_key=git_force_push&command=${
        encodeURIComponent("git push --force origin main")
      }`,
    );
    await page.reload();
    await card.waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll("hermes-island")].every((el) =>
        el.hasAttribute("data-hydrated")
      )
    );
    const answered = await h.call("POST", "/api/approval/respond", {
      session_id: h.sessionId,
      choice: "deny",
    });
    strictEqual(answered.status, 200);
    await card.locator('[data-choice="once"]').click();
    await card.waitFor({ state: "detached" });
    const unexpected = f.browser.errors.filter((e) => !e.includes("409"));
    strictEqual(unexpected.join("\n"), "");
  } finally {
    await f.close();
  }
});

browserTest("a clarifying question is answered from its card", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await f.open();
    await h.fake.enqueue(
      {
        toolCalls: [{
          name: "clarify",
          args: { question: "Which branch should I deploy?", choices: ["main", "staging"] },
        }],
      },
      { text: "Deploying staging." },
    );
    await f.send("Deploy it");
    const card = page.locator(".clarify-card");
    await card.waitFor();
    strictEqual(
      await card.locator(".clarify-question").textContent(),
      "Which branch should I deploy?",
    );
    await f.browser.screenshot(page, "clarify-card");
    await card.getByRole("button", { name: "staging" }).click();
    await f.settled();
    strictEqual(await card.count(), 0);
    const toolMsg = h.fake.chatRequests.at(-1)!.body.messages.filter((m: { role: string }) =>
      m.role === "tool"
    ).at(-1);
    ok(JSON.stringify(toolMsg).includes("The user answered: staging"));
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "with approvals skipped (/yolo) the transcript says so and no card appears",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      const yolo = await h.call("POST", "/api/session/yolo", {
        session_id: h.sessionId,
        enabled: true,
      });
      strictEqual(yolo.status, 200);
      await f.open();
      const note = page.locator(".yolo-note");
      await note.waitFor();
      await h.fake.enqueue({ toolCalls: [terminal("rm -rf out/")] }, { text: "Removed." });
      await f.send("Remove out");
      await f.settled();
      strictEqual(await page.locator(".approval-card").count(), 0);
      strictEqual(await page.locator(".turns-live .attention-row").count(), 0);
      await f.browser.screenshot(page, "yolo-note");
      // The composer announces a change of the switch; the note follows without a reload.
      await page.evaluate((sid) =>
        dispatchEvent(
          new CustomEvent("hermes:skip-approvals", { detail: { session_id: sid, enabled: false } }),
        ), h.sessionId);
      await note.waitFor({ state: "detached" });
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
