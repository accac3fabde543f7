// Standing approvals in Chromium against the real engine: the approval card names the category
// in words ("Always allow recursive deletes"), never its internal key; a command that fails
// under the rule shows its error with the rule beside it (plain words, no backticks); the
// Control Center's Standing approvals tab lists each rule and removes it by click and by
// keyboard, focus staying in place; and the next identical command asks again.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page } from "./browser.ts";
import { openToolCard, transcriptFixture } from "./transcript_harness.ts";
import { loadAxe } from "./axe.ts";

const terminal = (command: string) => ({ name: "terminal", args: { command } });

/** Internal category keys and raw rule notes a person must never read. */
const INTERNAL = /rm_recursive|chmod_world_writable|`|\[allowed by rule/;

async function textOf(page: Page, selector: string): Promise<string> {
  return await page.locator(selector).evaluate((el) =>
    [
      el.textContent ?? "",
      ...[...el.querySelectorAll("[title]")].map((e) => e.getAttribute("title")),
    ]
      .join(" ")
  );
}

/** axe-core's serious and critical findings inside `selector` (names, roles, contrast). */
async function axeFindings(page: Page, selector: string): Promise<string[]> {
  await loadAxe(page);
  return await page.evaluate(async (sel) => {
    // deno-lint-ignore no-explicit-any
    const res = await (globalThis as any).axe.run(sel, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return res.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.html).join(" | ")}`);
  }, selector);
}

async function shoot(
  f: Awaited<ReturnType<typeof transcriptFixture>>,
  name: string,
  phone = false,
): Promise<void> {
  const { page } = f;
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    await f.browser.screenshot(page, `${name}-${theme}${phone ? "-phone" : ""}`);
  }
}

browserTest(
  "standing approvals: the card speaks in words, the Control Center lists and removes rules",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      await Deno.mkdir(join(h.workspace, "build"));
      await Deno.writeTextFile(join(h.workspace, "notes.txt"), "keep me\n");
      await f.open();
      const card = page.locator(".approval-card");

      // The card offers the whole category in words.
      await h.fake.enqueue({ toolCalls: [terminal("rm -rf build/")] }, { text: "Removed it." });
      await f.send("Clean the build folder");
      await card.waitFor();
      const wide = card.locator('[data-choice="always-pattern"]');
      strictEqual((await wide.textContent())?.trim(), "Always allow recursive deletes");
      ok(
        !INTERNAL.test(await textOf(page, ".approval-card")),
        await textOf(page, ".approval-card"),
      );
      strictEqual(await card.locator(".approval-command").getAttribute("dir"), "auto");
      await shoot(f, "rules-approval-card");
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(f, "rules-approval-card", true);
      await page.setViewportSize({ width: 1280, height: 860 });
      await wide.click();
      await f.settled();

      // Under the rule a failing command runs unasked; its error shows, the rule beside it.
      await h.fake.enqueue({ toolCalls: [terminal("rm -r missing-dir")] }, {
        text: "It was not there.",
      });
      await f.send("Remove missing-dir");
      await f.settled();
      const row = page.locator(".turns-live .turn").last().locator(".attention-row");
      await row.waitFor();
      ok((await row.locator(".attention-detail").textContent())!.includes("missing-dir"));
      strictEqual(
        (await row.locator(".tool-rule").textContent())?.trim(),
        "allowed by rule: recursive deletes",
      );
      ok(!INTERNAL.test((await row.textContent())!), (await row.textContent())!);
      // The tool card too: the rule in words in its head, the output without the raw note.
      const failedTurn = page.locator(".turns-live .turn").last();
      await openToolCard(failedTurn, "terminal");
      const toolCard = failedTurn.locator(".tool-card[data-tool='terminal']");
      await toolCard.locator(".tool-result").waitFor();
      ok((await toolCard.locator(".tool-result").textContent())!.startsWith("rm: cannot remove"));
      ok(!INTERNAL.test((await toolCard.textContent())!), (await toolCard.textContent())!);
      await shoot(f, "rules-failed-under-rule");
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(f, "rules-failed-under-rule", true);
      await page.setViewportSize({ width: 1280, height: 860 });

      // An exact command made "always" too.
      await h.fake.enqueue({ toolCalls: [terminal("chmod 777 notes.txt")] }, { text: "Done." });
      await f.send("Make notes.txt writable for everyone");
      await card.waitFor();
      await card.locator('[data-choice="always"]').click();
      await f.settled();

      // The Control Center lists both, newest first, in words.
      await page.locator('[data-action="control-center"]').click();
      await page.waitForSelector('[data-cc-dialog][role="dialog"]');
      await page.locator('[data-cc-tab="rules"]').click();
      const rows = page.locator("[data-cc-list=rules] > li");
      strictEqual(await rows.count(), 2);
      const category = page.locator("li[data-rule-id='category:rm_recursive']");
      const exact = page.locator("li[data-kind='command']");
      strictEqual(
        (await category.locator(".cc-rule-name").textContent())?.trim(),
        "Recursive deletes",
      );
      ok((await category.textContent())!.includes("Whole category"));
      ok((await category.locator("time").count()) === 1, "when it was made");
      strictEqual(await exact.locator(".cc-rule-command").textContent(), "chmod 777 notes.txt");
      ok(!INTERNAL.test(await textOf(page, "[data-cc-block=rules]")));
      const removeCategory = category.locator("button[data-cc-action='rule-remove']");
      strictEqual(
        await removeCategory.getAttribute("aria-label"),
        "Remove standing approval: \u2068Recursive deletes\u2069",
      );
      for (const theme of ["light", "dark"]) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const findings = await axeFindings(page, "[data-cc-panel=rules]");
        strictEqual(findings.length, 0, `${theme}: ${findings.join("\n")}`);
      }
      await shoot(f, "rules-control-center");
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(f, "rules-control-center", true);
      await page.setViewportSize({ width: 1280, height: 860 });

      // Removed by a click: gone from the list, focus on the rule that took its place.
      await removeCategory.click();
      await category.waitFor({ state: "detached" });
      strictEqual(await rows.count(), 1);
      await page.waitForFunction(() =>
        document.activeElement?.matches("[data-kind='command'] [data-cc-action='rule-remove']")
      );
      ok(
        (await page.locator("[data-cc-status=rules]").textContent())!.includes("Recursive deletes"),
      );
      // And by the keyboard: Enter on the focused button; the empty state takes focus.
      await page.keyboard.press("Enter");
      await page.locator("[data-cc-empty=rules]").waitFor();
      await page.waitForFunction(() => document.activeElement?.matches("[data-cc-empty=rules]"));
      await shoot(f, "rules-control-center-empty");
      const config = await Deno.readTextFile(join(h.root, "config.yaml"));
      ok(!config.includes("- rm_recursive") && !config.includes("chmod 777"), config);
      await page.keyboard.press("Escape");

      // The very next recursive delete asks again.
      await Deno.mkdir(join(h.workspace, "build"));
      await h.fake.enqueue({ toolCalls: [terminal("rm -rf build/")] }, { text: "Removed it." });
      await f.send("Clean the build folder again");
      await card.waitFor();
      await card.locator('[data-choice="deny-open"]').click();
      await card.locator('[data-choice="deny"]').click();
      await f.settled();

      // Right to left: the list in Arabic, a command with Arabic in it kept in its isolate.
      await Deno.mkdir(join(h.workspace, "مسودات"));
      await h.fake.enqueue({ toolCalls: [terminal("rm -rf مسودات")] }, { text: "تم." });
      await f.send("Remove the drafts");
      await card.waitFor();
      await card.locator('[data-choice="always"]').click();
      await f.settled();
      strictEqual((await h.call("POST", "/api/settings", { language: "ar" })).status, 200);
      await page.reload();
      await page.locator('[data-action="control-center"]').click();
      await page.locator('[data-cc-tab="rules"]').click();
      const arabic = page.locator("li[data-kind='command']");
      strictEqual(await arabic.locator(".cc-rule-command").textContent(), "rm -rf مسودات");
      ok((await arabic.textContent())!.includes("أمر بعينه"), (await arabic.textContent())!);
      await shoot(f, "rules-control-center-rtl");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
