// Issue 29, "pages show an offline sign": Chromium on a page following a run that waits for an
// approval, against main.ts as `deno task start` runs it. The server is stopped (SIGTERM): the
// page's quiet connection sign appears (role=status, polite) without anything being sent; the
// server is started again on the same port and state dir: the sign goes and the live transcript
// resumes, reading the run as interrupted by the restart. While away, one "reconnecting" message
// shows (not also the followed turn's) and the approval card's answers are disabled. Screenshots
// of the sign in both themes, desktop and phone. Fails on any console error but the refused
// connections of the offline window.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, ensureIslandsBuilt, launchBrowser, type Page } from "./browser.ts";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import type { RecordedRequest, ScriptedResponse } from "../fixtures/fake_provider.ts";
import { type StartedServer, startServer } from "../fixtures/start_server.ts";

function respond(req: RecordedRequest): ScriptedResponse {
  const toolDone = (req.body?.messages ?? []).some((m: { role: string }) => m.role === "tool");
  return toolDone
    ? { text: "Removed it." }
    : { toolCalls: [{ id: "call_rm", name: "terminal", args: { command: "rm -rf build" } }] };
}

async function post<T>(server: StartedServer, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hermes-csrf-token": server.token },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

/** What Chromium logs for each request the stopped server refused (expected while it is away). */
const REFUSED = /^console\.error: Failed to load resource: net::ERR_CONNECTION_REFUSED$/;

/** The child's exit status, or null when it is still running after `ms`. */
async function exitWithin(child: Deno.ChildProcess, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)));
  try {
    return await Promise.race([child.status, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The visible elements that say the page is reconnecting, by their text. */
function reconnectingShown(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) =>
        el.children.length === 0 && /reconnecting/i.test(el.textContent ?? "") &&
        el.getClientRects().length > 0
      )
      .map((el) => el.textContent!.trim())
  );
}

async function setTheme(page: Page, theme: "light" | "dark") {
  await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
}

browserTest(
  "a page shows the offline sign while its server is away and drops it on return",
  async () => {
    await ensureIslandsBuilt();
    const fake = startFakeProvider({ respond });
    const root = await Deno.makeTempDir({ prefix: "hermes-offline-" });
    await Deno.mkdir(join(root, "workspace", "build"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
    );
    let server = await startServer(root);
    const port = Number(new URL(server.base).port);
    const browser = await launchBrowser();
    try {
      const { session } = await post<{ session: { session_id: string } }>(
        server,
        "/api/session/new",
        {},
      );
      await post(server, "/api/chat/start", {
        session_id: session.session_id,
        message: "Clean the build folder",
      });
      const page = await browser.newPage();
      await page.goto(`${server.base}/session/${session.session_id}`);
      // Following the run: its approval card is up.
      await page.locator(".approval-card").waitFor();
      const sign = page.locator(".connection-sign");
      strictEqual(await sign.getAttribute("role"), "status");
      strictEqual(await sign.getAttribute("aria-live"), "polite");
      strictEqual(await sign.getAttribute("data-reach"), "online");
      strictEqual((await sign.textContent())?.trim(), "", "no sign while connected");
      ok(!await sign.isVisible(), "nothing shows while connected");

      server.child.kill("SIGTERM");
      const exited = await exitWithin(server.child, 10_000);
      if (!exited) await server.stop("SIGKILL");
      ok(exited, "the server exits on SIGTERM while a page follows a run");
      // Nothing is sent: the page learns it from its streams and its probes alone.
      await page.locator('.connection-sign[data-reach="offline"]').waitFor({ timeout: 15_000 });
      strictEqual(await sign.textContent(), "Can’t reach the server — reconnecting…");
      ok(await sign.isVisible());
      // The followed run's stream broke too (its turn's line is there), yet one sign says so; and
      // the approval card cannot be answered while nothing could receive the answer.
      await page.locator(".turn-status[data-reconnecting]").waitFor({
        state: "attached",
        timeout: 15_000,
      });
      deepStrictEqual(await reconnectingShown(page), ["Can’t reach the server — reconnecting…"]);
      await page.locator(".approval-card .approval-offline").waitFor();
      strictEqual(await page.locator(".approval-card button:enabled").count(), 0);

      await setTheme(page, "dark");
      await browser.screenshot(page, "offline-sign-dark");
      await setTheme(page, "light");
      await browser.screenshot(page, "offline-sign-light");
      await page.setViewportSize({ width: 390, height: 844 });
      await browser.screenshot(page, "offline-sign-light-phone");
      await setTheme(page, "dark");
      await browser.screenshot(page, "offline-sign-dark-phone");
      await page.setViewportSize({ width: 1280, height: 800 });
      const box = await sign.boundingBox();
      const topbar = await page.locator(".conversation > .topbar").boundingBox();
      ok(box && topbar && box.y >= topbar.y + topbar.height, "the sign sits under the top bar");

      server = await startServer(root, { port });
      await page.locator('.connection-sign[data-reach="online"]').waitFor({
        state: "attached",
        timeout: 15_000,
      });
      strictEqual((await sign.textContent())?.trim(), "");
      ok(!await sign.isVisible(), "the sign is gone once the server answers");
      await browser.screenshot(page, "offline-sign-gone");
      // The live transcript resumed: the run reads as interrupted by the restart, its card gone.
      const last = page.locator(".turns-live .turn").last();
      await last.locator('.turn-notice[data-kind="error"]').waitFor({ timeout: 15_000 });
      // The approval expired with the restart: its card goes once the queue is read again.
      await page.locator(".approval-card").waitFor({ state: "detached", timeout: 15_000 });
      const notice = await last.locator('.turn-notice[data-kind="error"]').textContent() ?? "";
      ok(notice.includes("Interrupted"), `the interruption is said: ${notice}`);
      const errors = browser.errors.filter((e) => !REFUSED.test(e));
      strictEqual(errors.length, 0, `the browser reported errors:\n${errors.join("\n")}`);
    } finally {
      await browser.close();
      await server.stop("SIGKILL").catch(() => {});
      await fake.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
);
