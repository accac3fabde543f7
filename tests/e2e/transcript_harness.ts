// Shared setup of the transcript's browser tests: the real app with a scripted fake provider
// (tests/fixtures/engine_harness.ts), the islands built, Chromium launched, and helpers to
// send a message through the composer and wait for the run to finish on the page.
import type { Locator } from "playwright-core";
import { type Harness, type HarnessOptions, startHarness } from "../fixtures/engine_harness.ts";
import {
  type BrowserHarness,
  ensureIslandsBuilt,
  launchBrowser,
  type Page,
  waitForIslands,
} from "./browser.ts";

export interface TranscriptFixture {
  h: Harness;
  browser: BrowserHarness;
  page: Page;
  /** Open the harness session (or `sid`) and wait for hydration. */
  open(sid?: string): Promise<void>;
  /** Type `text` in the composer and send it (each send becomes a turn: see `settled`). */
  send(text: string): Promise<void>;
  /**
   * Resolve once every message sent so far has its turn on the page and no run is active
   * (the live turn ended). Counting the sends matters: right after a send the page can still
   * show only earlier, finished turns, which would look settled.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function transcriptFixture(
  opts: HarnessOptions & { width?: number; height?: number } = {},
): Promise<TranscriptFixture> {
  await ensureIslandsBuilt();
  const h = await startHarness(opts);
  const browser = await launchBrowser();
  const page = await browser.newPage({ width: opts.width ?? 1280, height: opts.height ?? 860 });
  /** Live turns the page must show once every send so far has started its run. */
  let expectedTurns = 0;
  // A load (open(), a reload, a link) starts the live section afresh: earlier turns are history.
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) expectedTurns = 0;
  });
  const liveTurns = () =>
    page.evaluate(() => document.querySelectorAll(".turns-live .turn").length);
  return {
    h,
    browser,
    page,
    async open(sid = h.sessionId) {
      await page.goto(`${h.url}/?session=${sid}`);
      await waitForIslands(page);
    },
    async send(text) {
      expectedTurns = Math.max(expectedTurns, await liveTurns()) + 1;
      await page.locator("#composer-input").fill(text);
      await page.keyboard.press("Enter");
    },
    async settled() {
      await page.waitForFunction(
        (expected) =>
          document.querySelectorAll(".turns-live .turn").length >= Math.max(expected, 1) &&
          document.querySelectorAll(".turns-live .turn[data-live]").length === 0,
        expectedTurns,
      );
      // The last segment settles asynchronously (final markdown render). Streamed segments only:
      // narration inside the Activity is rendered whole, with no streaming state.
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLElement>(".turns-live .msg-assistant.prose")].every((
          el,
        ) => el.dataset.state === "final")
      );
    },
    async close() {
      await browser.close();
      await h.close();
    },
  };
}

/** Run `fn` on a fresh `transcriptFixture(opts)`, closed after whatever happens. */
export async function withTranscriptFixture(
  opts: HarnessOptions & { width?: number; height?: number },
  fn: (f: TranscriptFixture) => Promise<void>,
): Promise<void> {
  const f = await transcriptFixture(opts);
  try {
    await fn(f);
  } finally {
    await f.close();
  }
}

/**
 * Open `turn`'s Activity row and the card of its `tool` call as a script would: a click can
 * race the settled turn's re-render, and on a phone the composer dock covers the row's edge.
 */
export async function openToolCard(turn: Locator, tool: string): Promise<void> {
  await turn.locator("details.activity").evaluate((d) => (d as HTMLDetailsElement).open = true);
  await turn.locator(`.tool-card[data-tool='${tool}'] .tool-head`).evaluate((b) =>
    (b as HTMLElement).click()
  );
}

/** Count of elements in the document (the DOM budget). */
export function domSize(page: Page): Promise<number> {
  return page.evaluate(() => document.getElementsByTagName("*").length);
}
