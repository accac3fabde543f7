// The approval inbox in Chromium: two chats wait on approvals; the sidebar footer says
// "2 agents are waiting on you", the panel lists both; a hardline edit is refused on the card,
// an edited command runs once (the agent is told), `d` denies the other. Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { waitFor } from "../fixtures/engine_harness.ts";

const terminal = (command: string) => ({ name: "terminal", args: { command } });

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(
    `the approval inbox lists every waiting agent, edit-then-run (${size.width}px)`,
    async () => {
      const f = await transcriptFixture(size);
      const { page, h } = f;
      try {
        await Deno.mkdir(join(h.workspace, "build", "tmp"), { recursive: true });
        await Deno.writeTextFile(join(h.workspace, "build", "keep.txt"), "keep");
        await Deno.mkdir(join(h.workspace, "dist"));
        const other = await h.newSession();
        const pending = async (n: number) =>
          await waitFor(async () =>
            (await h.call("GET", "/api/approval/inbox")).body.count === n || null
          );
        h.fake.enqueue({ toolCalls: [terminal("rm -rf build")] });
        const a = await h.start("clean build");
        await pending(1);
        h.fake.enqueue({ toolCalls: [terminal("rm -rf dist")] });
        const b = await h.call("POST", "/api/chat/start", {
          session_id: other,
          message: "clean dist",
        });
        await pending(2);
        h.fake.enqueue({ text: "Done." }, { text: "Understood." });

        await f.open();
        const badge = page.locator("[data-approval-inbox]");
        // On a phone the sidebar is a drawer: open it the way a person does.
        if (size.width < 600) await page.locator(".topbar-drawer-btn").click();
        await badge.waitFor();
        strictEqual(
          await badge.locator("[data-approval-inbox-text]").textContent(),
          "2 agents are waiting on you",
        );
        strictEqual(await badge.locator("[data-approval-inbox-count]").textContent(), "2");
        await badge.click();
        const cards = page.locator(".approval-inbox-card");
        await cards.nth(1).waitFor();
        strictEqual(
          await page.locator("#approval-inbox-title").textContent(),
          "2 agents are waiting on you",
        );
        await f.browser.screenshot(page, `approval-inbox-${size.width}`);

        // A hardline edit is refused on the card; the approval stays.
        const first = cards.first();
        await first.focus();
        await page.keyboard.press("e");
        await first.locator("textarea").fill("rm -rf /");
        await first.locator("button", { hasText: "Run edited once" }).click();
        await first.locator(".dialog-error").filter({ hasText: "never allowed" }).waitFor();
        strictEqual(await cards.count(), 2);

        await first.locator("textarea").fill("rm -rf build/tmp");
        await first.locator("button", { hasText: "Run edited once" }).click();
        await waitFor(async () => (await cards.count()) === 1 || null);
        await cards.first().focus();
        await page.keyboard.press("d");
        await page.locator("#approval-inbox-title", { hasText: "Nothing is waiting on you" })
          .waitFor();
        await f.browser.screenshot(page, `approval-inbox-empty-${size.width}`);

        for (const id of [a.stream_id, b.body.stream_id]) await h.stream(id);
        strictEqual(await Deno.readTextFile(join(h.workspace, "build", "keep.txt")), "keep");
        ok(!(await Deno.stat(join(h.workspace, "build", "tmp")).then(() => true, () => false)));
        ok((await Deno.stat(join(h.workspace, "dist"))).isDirectory, "denied: dist stays");
        const results = h.fake.chatRequests.flatMap((r) =>
          r.body.messages.filter((m: { role: string }) => m.role === "tool")
        ).map((m: { content: string }) => String(m.content));
        ok(results.some((t: string) => t.includes("this ran instead:\nrm -rf build/tmp")), "told");
        await page.waitForFunction(() =>
          document.querySelector<HTMLElement>("[data-approval-inbox]")?.hidden === true
        );
        const unexpected = f.browser.errors.filter((e) => !e.includes("400"));
        strictEqual(unexpected.length, 0, unexpected.join("\n"));
      } finally {
        await f.close();
      }
    },
  );
}
