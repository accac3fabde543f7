// Browser tests' shared harness: Debian's Chromium driven by playwright-core with the flags
// of CONVENTIONS.md, a fresh temp profile per launch, every console error and uncaught page
// error collected (a test fails on any), and screenshots saved under one temp dir per run.
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestApp, serveTestApp, type TestApp, type TestAppOptions } from "../helpers.ts";

export type { BrowserContext, Page };

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** True when Chromium is installed (browser tests are skipped, loudly, when it is not). */
export const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
})();

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

/**
 * Launch Chromium with a fresh temporary profile. Always `close()` it (sanitizers). The
 * console's service worker (/sw.js) is blocked unless `serviceWorkers: "allow"`: a worker that
 * serves cached bundles would hide requests from `page.route()`/`page.on("request")`, so only
 * the install test (tests/e2e/share_e2e_test.ts) runs with it. `args` adds Chromium flags (the
 * voice test's fake microphone).
 */
export async function launchBrowser(
  opts: { serviceWorkers?: "allow" | "block"; args?: string[]; deviceScaleFactor?: number } = {},
): Promise<BrowserHarness> {
  const profile = await Deno.makeTempDir({ prefix: "hermes-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(opts.args ?? [])],
    viewport: { width: 1280, height: 800 },
    serviceWorkers: opts.serviceWorkers ?? "block",
    deviceScaleFactor: opts.deviceScaleFactor, // 2: the zoom test's high-DPI screenshots
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`console.error: ${msg.text()}`);
    });
    page.on("pageerror", (err) => errors.push(`pageerror: ${err.stack ?? err.message}`));
  };
  // The persistent context opens one blank page; it is watched like every later one.
  for (const page of context.pages()) watch(page);
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
      await context.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
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
export async function ensureIslandsBuilt(): Promise<void> {
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

/** A `Deno.test` that is skipped (reported as ignored) when Chromium is not installed. */
export function browserTest(name: string, fn: () => Promise<void>, ignore = false): void {
  Deno.test({ name, ignore: ignore || !hasChromium, fn });
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
