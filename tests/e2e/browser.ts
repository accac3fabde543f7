// Browser tests' shared harness: Debian's Chromium driven by playwright-core with the flags
// of CONVENTIONS.md, one browser process per test file (launched on first use, closed after the
// file's last test) and a fresh context per test — its own storage, cookies and service
// workers, so tests stay independent without paying a Chromium start each — every console error
// and uncaught page error collected (a test fails on any), and screenshots saved under one temp
// dir per run.
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { skipWhen } from "../fixtures/skip.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestApp, serveTestApp, type TestApp, type TestAppOptions } from "../helpers.ts";

export type { BrowserContext, Page };

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell: the same engine
 * without the browser's own UI, which costs the suite about 40% less CPU), else the full
 * browser. CHROMIUM_PATH names another (`/nonexistent` shows how skips are reported).
 */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ||
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find(isFile) ||
  "/usr/bin/chromium-headless-shell";

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** True when Chromium is installed. */
export const hasChromium = isFile(CHROMIUM_PATH);

/** Why browser tests cannot run here, or null when they can. */
export const chromiumMissing = hasChromium
  ? null
  : `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium-headless-shell)`;

export interface BrowserHarness {
  context: BrowserContext;
  /** A new page whose console errors and page errors are recorded in `errors`. */
  newPage(opts?: { width?: number; height?: number }): Promise<Page>;
  /** Every console error and uncaught exception seen so far, in order. */
  errors: string[];
  /** Throw (listing them) when any page reported an error. */
  assertNoErrors(): void;
  /** Save a full-page PNG named `<name>.png` in the run's screenshot dir; returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

let screenshotDir: string | undefined;

/** The run's screenshot folder (created on first use; its path is printed once). */
export async function screenshotsDir(): Promise<string> {
  if (!screenshotDir) {
    screenshotDir = await Deno.makeTempDir({ prefix: "hermes-screenshots-" });
    console.log(`screenshots: ${screenshotDir}`);
  }
  return screenshotDir;
}

/** The file's browser processes, one per set of extra launch flags (most files use one). */
const browsers = new Map<string, Promise<Browser>>();

function sharedBrowser(args: string[]): Promise<Browser> {
  const key = args.join(" ");
  let browser = browsers.get(key);
  if (!browser) {
    browser = chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...args],
    });
    browsers.set(key, browser);
    // A browser that crashed or was closed is launched again by the next test.
    browser.then((b) => b.on("disconnected", () => browsers.delete(key))).catch(() =>
      browsers.delete(key)
    );
  }
  return browser;
}

/** Close the file's browsers; the next test that needs one launches it afresh. */
async function closeBrowsers(): Promise<void> {
  const open = [...browsers.values()];
  browsers.clear();
  for (const browser of open) await (await browser.catch(() => null))?.close().catch(() => {});
}

// After the file's last test (Deno.test.afterAll is only there when this runs under `deno test`;
// the sessions bench imports this file under `deno run`).
if (typeof Deno.test?.afterAll === "function") Deno.test.afterAll(closeBrowsers);

/**
 * A fresh browser context (its own storage, cookies and service workers) on the file's shared
 * Chromium. Always `close()` it. The console's service worker (/sw.js) is blocked unless
 * `serviceWorkers: "allow"`: a worker that serves cached bundles would hide requests from
 * `page.route()`/`page.on("request")`, so only the install test (tests/e2e/share_e2e_test.ts)
 * runs with it. `args` adds Chromium flags (the voice test's fake microphone): those tests get
 * a browser process of their own.
 */
export async function launchBrowser(
  opts: { serviceWorkers?: "allow" | "block"; args?: string[]; deviceScaleFactor?: number } = {},
): Promise<BrowserHarness> {
  const browser = await sharedBrowser(opts.args ?? []);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: opts.serviceWorkers ?? "block",
    deviceScaleFactor: opts.deviceScaleFactor, // 2: the zoom test's high-DPI screenshots
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`console.error: ${msg.text()}`);
    });
    // A thrown non-Error (a rejection with an event, a string) has neither stack nor message:
    // its name and string form still say what it was.
    page.on(
      "pageerror",
      (err) =>
        errors.push(`pageerror: ${err.stack || err.message || `${err.name}: ${String(err)}`}`),
    );
  };
  context.on("page", watch);
  return {
    context,
    errors,
    async newPage(opts = {}) {
      const page = await context.newPage();
      if (opts.width || opts.height) {
        await page.setViewportSize({ width: opts.width ?? 1280, height: opts.height ?? 800 });
      }
      return page;
    },
    assertNoErrors() {
      if (errors.length) throw new Error(`The browser reported errors:\n${errors.join("\n")}`);
    },
    async screenshot(page, name) {
      const path = join(await screenshotsDir(), `${name}.png`);
      await page.screenshot({ path, fullPage: false, animations: "disabled" });
      return path;
    },
    async close() {
      await context.close().catch(() => {}); // a crashed browser took its contexts with it
    },
  };
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const mtimeOf = (path: string): number => {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? 0;
  } catch {
    return Infinity; // a vanished input: rebuild
  }
};

/**
 * Make sure static/_islands/ holds a build newer than every file it was built from and
 * covering every island file (`deno task test` builds first; a lone `deno test tests/e2e/…`
 * may not have). Rebuilding is safe while other tests read the bundle: unchanged chunks keep
 * their names and bytes, and the manifest is replaced atomically.
 */
export function ensureIslandsBuilt(): Promise<void> {
  // Once per test file: the build does not go stale between two tests of one run.
  islandsChecked ??= checkIslandsBuilt().catch((err) => {
    islandsChecked = null;
    throw err;
  });
  return islandsChecked;
}

let islandsChecked: Promise<void> | null = null;

async function checkIslandsBuilt(): Promise<void> {
  const manifestPath = join(ROOT, "static/_islands/manifest.json");
  let stale = true;
  try {
    const manifest = JSON.parse(Deno.readTextFileSync(manifestPath)) as {
      inputs?: string[];
      islands: Record<string, unknown>;
      scripts?: Record<string, unknown>;
    };
    const built = mtimeOf(manifestPath);
    const islandFiles = [...Deno.readDirSync(join(ROOT, "islands"))].filter((e) => e.isFile);
    const clientFiles = [...Deno.readDirSync(join(ROOT, "lib/browser/pages"))]
      .filter((e) => e.isFile && e.name.endsWith(".ts"));
    stale = !manifest.inputs ||
      manifest.inputs.some((f) => mtimeOf(join(ROOT, f)) > built) ||
      islandFiles.length !== Object.keys(manifest.islands).length ||
      clientFiles.length !== Object.keys(manifest.scripts ?? {}).length;
  } catch { /* never built */ }
  if (!stale) return;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno task build failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Resolve once every island on the page has hydrated (the runtime marks each one). */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForSelector("hermes-island", { state: "attached" });
  await page.waitForFunction(() =>
    [...document.querySelectorAll("hermes-island")].every((el) => el.hasAttribute("data-hydrated"))
  );
}

/** Load `href` in `page` and resolve once its islands have hydrated. */
export async function gotoHydrated(page: Page, href: string): Promise<void> {
  await page.goto(href);
  await waitForIslands(page);
}

/**
 * Extra screenshots for review, `<name>-light.png` and `<name>-dark.png` in `dir`, taken only
 * when `dir` exists (a reviewer makes it). The theme changes for the page alone, unsaved.
 */
export async function screenshotThemes(page: Page, dir: string, name: string): Promise<void> {
  if (!(await Deno.stat(dir).catch(() => null))) return;
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((theme) =>
      globalThis.dispatchEvent(
        new CustomEvent("hermes:theme-change", { detail: { theme, persist: false } }),
      ), theme);
    await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: "attached" });
    await page.screenshot({ path: join(dir, `${name}-${theme}.png`), animations: "disabled" });
  }
}

/**
 * A browser test: ignored, with its reason printed, when Chromium is not installed or when
 * `missing` names something else it needs. The resource and op sanitizers are off: the file's
 * Chromium outlives each test by design.
 */
export function browserTest(
  name: string,
  fn: () => Promise<void>,
  missing: string | null = null,
): void {
  Deno.test({
    name,
    ignore: skipWhen(chromiumMissing ?? missing, name),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withinBrowserBudget(name, fn),
  });
}

/** Far above any browser test's run on a loaded 2-core machine (the longest take about 1 min). */
const BROWSER_TEST_BUDGET_MS = 5 * 60_000;

/**
 * Run a browser test, failing it when it runs past the budget: some Playwright calls wait with no
 * timeout of their own (a new context or page, a download), and a browser that stops answering
 * would otherwise hold the whole run until CI's limit. The file's browser is closed then, so the
 * stuck calls end and the next test starts on a fresh one.
 */
async function withinBrowserBudget(name: string, fn: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void closeBrowsers();
      reject(new Error(`"${name}" did not finish within ${BROWSER_TEST_BUDGET_MS / 1000} s`));
    }, BROWSER_TEST_BUDGET_MS);
  });
  try {
    await Promise.race([fn(), overrun]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `withAppInBrowser` hands its body: the app, its loopback URL and the browser. */
export interface AppInBrowser {
  app: TestApp;
  /** `http://127.0.0.1:<port>` of the served app, no trailing slash. */
  url: string;
  browser: BrowserHarness;
}

/**
 * Build the islands if needed, create a fresh test app with `options`, serve it on loopback,
 * launch Chromium and run `fn`; the browser, server and app are closed whatever happens.
 * Console errors are left to `fn` to assert, since some tests provoke expected ones.
 */
export async function withAppInBrowser(
  options: TestAppOptions,
  fn: (s: AppInBrowser) => Promise<void>,
): Promise<void> {
  await ensureIslandsBuilt();
  const app = await createTestApp(options);
  const server = serveTestApp(app);
  try {
    const browser = await launchBrowser();
    try {
      await fn({ app, url: server.url, browser });
    } finally {
      await browser.close();
    }
  } finally {
    await server.shutdown();
    await app.close();
  }
}
