// A standing goal in a real browser: `/goal <text>` on a new chat sets it, the server starts its
// kickoff turn and the page follows that run live (it sends no message itself); the fake provider scripts the turns and the evaluator's verdicts (continue, then met);
// the top bar's quiet chip shows the progress ("Goal · 1/20", active) and then "done" with the
// subgoals checked and the last reason; the turn the server started by itself shows its quiet
// divider in the transcript; `/goal clear` hides the chip. Fails on any console error.
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import { type RecordedRequest, startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, waitForIslands, withAppInBrowser } from "./browser.ts";

const GOAL = "Write hello.txt and test it";

const verdict = (v: string, reason: string, done: boolean[]) => ({
  text: JSON.stringify({
    verdict: v,
    reason,
    progress: true,
    subgoals: [{ title: "write hello.txt", done: done[0] }, { title: "test it", done: done[1] }],
  }),
});

/** The evaluator's request: no tools, the goal in its prompt. */
const isEvaluation = (req: RecordedRequest) =>
  !req.body?.tools && JSON.stringify(req.body?.messages ?? "").includes(`Goal: ${GOAL}`);

browserTest(
  "Goal: /goal sets it, the chip shows progress then done, the next turn's divider",
  async () => {
    let turns = 0;
    let evals = 0;
    const fake = startFakeProvider({
      respond: (req) => {
        if (isEvaluation(req)) {
          evals++;
          return evals === 1 ? verdict("continue", "the file is not tested yet", [true, false]) : {
            ...verdict("met", "hello.txt exists and its test passes", [true, true]),
            headerDelayMs: 1200,
          };
        }
        turns++;
        return turns === 1
          ? { text: "Turn 1: wrote hello.txt." }
          // Slow enough for the page to find the run the server started by itself.
          : { text: "Turn 2: the test passes now.", chunkSize: 3, delayMs: 150 };
      },
    });
    try {
      await withAppInBrowser({
        configYaml:
          `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n  api_key: k\n`,
      }, async ({ app, url, browser }) => {
        const page = await browser.newPage();
        const pageStarts: string[] = [];
        page.on("request", (r) => {
          if (new URL(r.url()).pathname === "/api/chat/start") pageStarts.push(r.url());
        });
        await page.goto(`${url}/`);
        await waitForIslands(page);
        const chip = page.locator("[data-goal-chip]");
        strictEqual(await chip.isHidden(), true, "no goal, no chip");

        const area = page.locator(".composer textarea");
        await area.fill(`/goal ${GOAL}`);
        await page.keyboard.press("Enter");
        await page.waitForURL(/session=/);
        await page.waitForSelector("text=Turn 1: wrote hello.txt.");
        // The kickoff prompt went out as the first message, sent by the server, shown as the
        // user's turn above the answer the page streamed.
        const first = fake.chatRequests[0].body?.messages as Array<
          { role: string; content: unknown }
        >;
        assert(JSON.stringify(first.filter((m) => m.role === "user")).includes(GOAL));
        deepStrictEqual(pageStarts, [], "the page started no run itself");
        await page.locator(".transcript").getByText(GOAL, { exact: true }).first().waitFor();

        // Progress: the first verdict said "continue"; the server started turn 2 by itself.
        await page.waitForSelector('[data-goal-chip][data-status="active"] >> text=Goal · 1/20');
        const divider = page.locator(".goal-divider");
        await divider.waitFor();
        const line = (await divider.textContent())!;
        assert(line.includes("Continuing toward the goal — turn"), line);
        assert(line.includes("the file is not tested yet"), line);
        await page.waitForSelector("text=Turn 2: the test passes now.");
        await browser.screenshot(page, "goal-progress");

        // Done: the chip says so, with the subgoals checked and the evaluator's last reason.
        await page.waitForSelector('[data-goal-chip][data-status="done"]', { timeout: 20_000 });
        strictEqual((await chip.locator("[data-goal-label]").textContent())?.trim(), "Goal · 2/20");
        strictEqual(await chip.locator("[data-goal-status]").textContent(), "done");
        assert((await chip.locator("summary").getAttribute("title"))!.includes(GOAL));
        await chip.locator("summary").click();
        strictEqual(await chip.locator('[data-goal-subgoals] li[data-done="true"]').count(), 2);
        assert(
          (await chip.locator("[data-goal-reason]").textContent())!.includes(
            "hello.txt exists and its test passes",
          ),
        );
        await browser.screenshot(page, "goal-done");
        await page.locator(".transcript").click({ position: { x: 10, y: 300 } });
        strictEqual(await chip.getAttribute("open"), null, "a click elsewhere closes it");
        strictEqual(turns, 2);
        strictEqual(evals, 2);

        // After a reload the server renders the same chip; on a phone too.
        await page.setViewportSize({ width: 390, height: 844 });
        await page.reload();
        await waitForIslands(page);
        await page.waitForSelector('[data-goal-chip][data-status="done"]');
        await browser.screenshot(page, "goal-done-phone");

        // /goal clear hides it.
        await area.fill("/goal clear");
        await page.keyboard.press("Enter");
        await page.waitForSelector("[data-goal-chip]", { state: "hidden" });
        const sid = new URL(page.url()).searchParams.get("session")!;
        const g = await app.call("GET", `/api/goal?session_id=${sid}`);
        strictEqual(g.body.goal, null);
        browser.assertNoErrors();
      });
    } finally {
      await fake.close();
    }
  },
);
