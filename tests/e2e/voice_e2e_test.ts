// Voice in a real browser: Chromium with a fake microphone (its test tone), the app on loopback
// and the fake provider's /v1/audio endpoints behind it. Dictation takes the recording path
// (speech recognition is removed, as where the browser has none), sends the audio to
// POST /api/transcribe and puts the transcript into the draft at the caret. "Read aloud" on an
// answer speaks its prose (code left out) through speechSynthesis (observed by an init script
// that records every utterance) and stops on a second press; with the server engine it plays
// what POST /api/tts answers. Screenshots, desktop and phone, go to the run's folder and to
// /tmp/hermes-screenshots-voice/. Any console error fails the test.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, serveTestApp, type TestApp } from "../helpers.ts";
import { type FakeProvider, startFakeProvider } from "../fixtures/fake_provider.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import {
  type BrowserHarness,
  browserTest,
  ensureIslandsBuilt,
  launchBrowser,
  type Page,
  waitForIslands,
} from "./browser.ts";

const SHOTS = "/tmp/hermes-screenshots-voice";

const FAKE_MEDIA = [
  "--use-fake-ui-for-media-stream",
  "--use-fake-device-for-media-stream",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * Before any page script: no speech recognition (the recording path), and speechSynthesis
 * observed: each utterance's text, each cancel, each played <audio>.
 */
const INIT = `(() => {
  delete window.SpeechRecognition;
  delete window.webkitSpeechRecognition;
  window.__spoken = [];
  window.__cancels = 0;
  window.__played = 0;
  const synth = window.speechSynthesis;
  synth.speak = (u) => { window.__spoken.push(u.text); };
  const cancel = synth.cancel.bind(synth);
  synth.cancel = () => { window.__cancels++; cancel(); };
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () { window.__played++; return play.call(this); };
})();`;

const ANSWER = "Here is the plan. First, read the file.\n\n```sh\nrm -rf /tmp/scratch\n```\n\n" +
  "Then run the **tests** and report back.";

interface Ctx {
  app: TestApp;
  fake: FakeProvider;
  url: string;
  browser: BrowserHarness;
  sessionId: string;
}

function voiceTest(name: string, fn: (c: Ctx) => Promise<void>) {
  browserTest(name, async () => {
    await ensureIslandsBuilt();
    const fake = startFakeProvider({ respond: () => ({ text: "ok" }) });
    const app = await createTestApp({
      configYaml:
        `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
        `  api_key: test-key\n`,
    });
    const server = serveTestApp(app);
    try {
      const { status } = await app.call("POST", "/api/settings", {
        stt_model: "fake-whisper",
        tts_model: "fake-tts",
        voice_continuous: true, // the fake microphone's tone has pauses: stop by hand
      });
      strictEqual(status, 200);
      const now = () => Date.now() / 1000;
      const s = await createSession(app.ctx.db, now, {
        workspace: app.workspace,
        title: "Voice check",
        model: "fake-model",
        model_provider: "custom",
      });
      await appendMessages(app.ctx.db, now, s.session_id, [
        { role: "user", content: "What is the plan?" },
        { role: "assistant", content: ANSWER },
      ]);
      const browser = await launchBrowser({ args: FAKE_MEDIA });
      await browser.context.addInitScript(INIT);
      try {
        await fn({ app, fake, url: server.url, browser, sessionId: s.session_id });
        if (browser.errors.length) console.log(app.logs.filter((l) => /error/i.test(l)).join("\n"));
        browser.assertNoErrors();
      } finally {
        await browser.close();
      }
    } finally {
      await server.shutdown();
      await app.close();
      await fake.close();
    }
  });
}

async function shot(c: Ctx, page: Page, name: string): Promise<void> {
  const path = await c.browser.screenshot(page, name);
  await Deno.mkdir(SHOTS, { recursive: true });
  await Deno.copyFile(path, join(SHOTS, `${name}.png`));
}

async function open(c: Ctx, width = 1280, height = 800): Promise<Page> {
  const page = await c.browser.newPage({ width, height });
  page.on("response", (r) => r.status() === 404 && console.log("404", r.url()));
  await page.goto(`${c.url}/session/${c.sessionId}`);
  await waitForIslands(page);
  return page;
}

voiceTest(
  "dictation records the microphone, transcribes it on the server and inserts at the caret",
  async (c) => {
    for (const [width, height, tag] of [[1280, 800, "desktop"], [390, 844, "phone"]] as const) {
      const page = await open(c, width, height);
      const mic = page.locator('button[data-action="dictate"]');
      await mic.waitFor();
      const input = page.locator("#composer-input");
      await input.fill("Start end");
      await input.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
      await shot(c, page, `composer-mic-${tag}`);
      const before = c.fake.audio.requests.length;
      await mic.click();
      await page.waitForSelector('button[data-action="dictate"][data-state="listening"]');
      strictEqual(await mic.getAttribute("aria-pressed"), "true");
      await page.waitForTimeout(1200); // a second of the fake microphone's tone
      await shot(c, page, `composer-mic-listening-${tag}`);
      await mic.click();
      await page.waitForFunction(() =>
        (document.getElementById("composer-input") as HTMLTextAreaElement).value.includes("fake")
      );
      const value = await input.inputValue();
      ok(
        /^Start fake transcript: \d+ bytes of audio\/(webm|ogg) end$/.test(value),
        `the transcript sits at the caret, spaced: ${JSON.stringify(value)}`,
      );
      const seen = c.fake.audio.requests[before];
      strictEqual(seen.kind, "transcription");
      strictEqual(seen.model, "fake-whisper");
      ok((seen.file?.size ?? 0) > 500, `a real recording arrived (${seen.file?.size} bytes)`);
      strictEqual(seen.language, "en");
      await page.waitForSelector('button[data-action="dictate"][data-state="idle"]');
      const caret = await input.evaluate((el: HTMLTextAreaElement) => el.selectionStart);
      strictEqual(caret, value.length - " end".length, "typing continues right after the words");
      await page.close();
    }
  },
);

voiceTest(
  "Read aloud speaks the answer's prose with speechSynthesis; a second press stops",
  async (c) => {
    for (const [width, height, tag] of [[1280, 800, "desktop"], [390, 844, "phone"]] as const) {
      const page = await open(c, width, height);
      const btn = page.locator('.msg-actions-answer button[data-action="read-aloud"]');
      await page.locator(".turn").last().hover();
      await btn.click();
      await page.waitForFunction(() =>
        (window as unknown as { __spoken: string[] }).__spoken.length > 0
      );
      const spoken = await page.evaluate(() =>
        (window as unknown as { __spoken: string[] }).__spoken.join(" ")
      );
      ok(spoken.includes("Here is the plan."), spoken);
      ok(spoken.includes("Then run the tests and report back."), spoken);
      ok(!spoken.includes("rm -rf"), `code is not read: ${spoken}`);
      strictEqual(await btn.getAttribute("aria-pressed"), "true");
      strictEqual(await btn.getAttribute("data-state"), "reading");
      await shot(c, page, `read-aloud-${tag}`);
      const cancels = await page.evaluate(() =>
        (window as unknown as { __cancels: number }).__cancels
      );
      await btn.click();
      await page.waitForSelector(
        '.msg-actions-answer button[data-action="read-aloud"][aria-pressed="false"]',
      );
      ok(
        await page.evaluate(
          (n) => (window as unknown as { __cancels: number }).__cancels > n,
          cancels,
        ),
        "the second press cancelled the speech",
      );
      await page.close();
    }
  },
);

voiceTest("with the server engine Read aloud plays what POST /api/tts answers", async (c) => {
  await c.app.call("POST", "/api/settings", { tts_engine: "agent", tts_server_voice: "nova" });
  const page = await open(c);
  const tts: string[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/tts")) tts.push(`${r.status()} ${r.headers()["content-type"]}`);
  });
  await page.locator(".turn").last().hover();
  await page.locator('.msg-actions-answer button[data-action="read-aloud"]').click();
  await page.waitForFunction(() => (window as unknown as { __played: number }).__played > 0);
  strictEqual(tts[0], "200 audio/wav");
  const seen = c.fake.audio.requests.find((r) => r.kind === "speech");
  ok(seen, "the speech model was asked");
  strictEqual(seen.model, "fake-tts");
  strictEqual(seen.voice, "nova");
  ok(seen.input?.startsWith("Here is the plan."), seen.input);
  ok(!seen.input?.includes("rm -rf"), seen.input);
  strictEqual(
    await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken.length),
    0,
    "the browser's own voice stayed silent",
  );
  // The quarter-second tone ends by itself and the button comes back.
  await page.waitForSelector(
    '.msg-actions-answer button[data-action="read-aloud"][aria-pressed="false"]',
    { timeout: 10_000 },
  );
  await page.close();
});

voiceTest("the Control Center's Voice section saves each field as it changes", async (c) => {
  for (const [width, height, tag] of [[1280, 800, "desktop"], [390, 844, "phone"]] as const) {
    const page = await open(c, width, height);
    if (tag === "phone") {
      await page.locator('[data-action="toggle-sidebar"]').first().click();
    }
    await page.locator('[data-action="control-center"]').click();
    await page.waitForSelector('[data-cc-dialog][role="dialog"]');
    await page.locator('[data-cc-tab="conversation"]').click();
    const section = page.locator('[data-cc-block="voice"]');
    await section.scrollIntoViewIfNeeded();
    strictEqual(await page.locator("#cc-stt-model").inputValue(), "fake-whisper");
    await shot(c, page, `voice-settings-${tag}`);
    if (tag === "desktop") {
      await page.locator("#cc-tts-engine").selectOption("agent");
      await page.waitForFunction(() =>
        document.querySelector('[data-cc-status="voice"]')?.textContent === "Saved."
      );
      const { body } = await c.app.call<{ tts_engine: string }>("GET", "/api/settings");
      strictEqual(body.tts_engine, "agent");
      await page.locator("#cc-tts-server-voice").fill("nova");
      await page.locator("#cc-tts-server-voice").press("Tab");
      await page.waitForFunction(async () =>
        (await (await fetch("/api/settings")).json()).tts_server_voice === "nova"
      );
    }
    await page.close();
  }
});
