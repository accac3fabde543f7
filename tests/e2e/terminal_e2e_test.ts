// The Terminal tab in a real browser against the real app: xterm.js loads on first show, the
// shell is a real PTY in the sandbox (`ls --color` paints colours, vim edits a file, top), the PTY
// follows the screen's size, a reload reattaches with the scrollback, and the phone layout.
// The screen is read through xterm's own buffer (the `xterm` property of each screen element).
import { ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";
import { sandboxStatus } from "../../lib/sandbox/bwrap_sandbox.ts";

const sandboxStatusNow = await sandboxStatus();
const sandboxMissing = sandboxStatusNow.bubblewrap
  ? null
  : `no bubblewrap sandbox: ${sandboxStatusNow.message}`;

interface XBuffer {
  length: number;
  getLine(y: number): {
    translateToString(trim: boolean): string;
    getCell(x: number): { getChars(): string; isFgPalette(): boolean; getFgColor(): number };
  } | undefined;
}
type Screen = HTMLElement & {
  xterm: { rows: number; cols: number; buffer: { active: XBuffer } };
};

/** The visible terminal's whole buffer (scrollback + screen) as text. */
const screenText = (page: Page) =>
  page.locator(".term-screen:not([hidden])").evaluate((el) => {
    const buf = (el as Screen).xterm.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buf.length; y++) lines.push(buf.getLine(y)!.translateToString(true));
    return lines.join("\n");
  });

async function waitForText(page: Page, text: string | RegExp, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  let last = "";
  while (Date.now() < end) {
    last = await screenText(page);
    if (typeof text === "string" ? last.includes(text) : text.test(last)) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`the terminal never showed ${text}; it shows:\n${last}`);
}

async function openTerminal(page: Page): Promise<void> {
  const tab = page.locator("[data-panel-tab='terminal']");
  if (!(await tab.isVisible())) {
    await page.locator(".topbar [data-action='toggle-workspace']").click();
  }
  await tab.click();
  await page.locator(".term-screen:not([hidden]) .xterm").waitFor();
  await waitForText(page, /\$ $/m); // the prompt
  await page.locator(".term-screen:not([hidden]) .xterm").click();
}

async function run(page: Page, cmd: string): Promise<void> {
  await page.keyboard.type(cmd);
  await page.keyboard.press("Enter");
}

browserTest("terminal tab: ls --color, vim, resize and reattach in a real PTY", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const seeded = await seedApp(app, { dark: true });
    await Deno.mkdir(join(app.workspace, "src"));
    await Deno.writeTextFile(join(app.workspace, "README.md"), "# hi\n");
    const page = await browser.newPage({ width: 1280, height: 800 });
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto(`${url}/?session=${seeded.withTranscript}`);
    await waitForIslands(page);
    const before = scripts.length;
    await openTerminal(page);
    assert(scripts.length > before, "xterm.js loaded on first show of the tab");

    // ls --color: the directory is painted in a palette colour (blue), the file is not.
    await run(page, "ls --color; id -u");
    const out = await waitForText(page, "65534");
    assert(out.includes("README.md") && out.includes("src"), out);
    const colour = await page.locator(".term-screen:not([hidden])").evaluate((el) => {
      const buf = (el as Screen).xterm.buffer.active;
      for (let y = 0; y < buf.length; y++) {
        const line = buf.getLine(y)!;
        const text = line.translateToString(false);
        const at = text.indexOf("src");
        if (at >= 0 && !text.includes("ls --color")) {
          const cell = line.getCell(at);
          return { palette: cell.isFgPalette(), colour: cell.getFgColor() };
        }
      }
      return null;
    });
    assert(colour && colour.palette, JSON.stringify(colour));
    strictEqual(colour!.colour % 8, 4, "ls paints directories blue");
    await browser.screenshot(page, "terminal-ls");

    // vim: a full-screen program on the PTY; edit and save a file.
    await run(page, "vim notes.txt");
    await waitForText(page, /^~\s*$/m);
    await page.keyboard.press("i");
    await page.keyboard.type("hello from vim");
    await page.keyboard.press("Escape");
    await browser.screenshot(page, "terminal-vim");
    await run(page, ":wq");
    await waitForText(page, /\$ $/m);
    strictEqual(await Deno.readTextFile(join(app.workspace, "notes.txt")), "hello from vim\n");

    // top: another full-screen program, quit with q.
    await run(page, "top");
    await waitForText(page, /load average/);
    await browser.screenshot(page, "terminal-top");
    await page.keyboard.press("q");
    await waitForText(page, /\$ $/m);

    // Resize: a smaller window gives xterm fewer columns, and the shell's PTY follows.
    const size = () =>
      page.locator(".term-screen:not([hidden])").evaluate((el) => {
        const t = (el as Screen).xterm;
        return `${t.rows} ${t.cols}`;
      });
    const wide = await size();
    await page.setViewportSize({ width: 1000, height: 640 });
    let narrow = wide;
    for (let i = 0; i < 50 && narrow === wide; i++) {
      await page.waitForTimeout(100);
      narrow = await size();
    }
    assert(narrow !== wide, `xterm refits (${wide} → ${narrow})`);
    await page.waitForTimeout(300); // the resize message is debounced
    await run(page, "clear; stty size");
    await waitForText(page, new RegExp(`^${narrow}$`, "m"));

    // Reload: the same shell comes back with its scrollback.
    await run(page, "echo marker-$((6*7))");
    await waitForText(page, "marker-42");
    await page.reload();
    await waitForIslands(page);
    await openTerminal(page);
    await waitForText(page, "marker-42");
    strictEqual(app.ctx.terminals.list(seeded.withTranscript).length, 1, "reattached, not new");
    // The replay held vim's terminal queries: xterm's answers must not have been typed.
    await run(page, "echo after-$((1+1))");
    await waitForText(page, /^after-2$/m);
    assert(!/rgb:|\$y/.test(await screenText(page)), await screenText(page));
    await browser.screenshot(page, "terminal-desktop");

    // A second terminal in its own tab.
    await page.locator("[data-term-add]").click();
    await page.locator(".term-tab").nth(1).waitFor();
    strictEqual(await page.locator(".term-tab").count(), 2);
    await waitForText(page, /\$ $/m);

    // The phone layout: the panel slides over, the terminal still fits and works.
    const phone = await browser.newPage({ width: 390, height: 844 });
    await phone.goto(`${url}/?session=${seeded.withTranscript}`);
    await waitForIslands(phone);
    await openTerminal(phone);
    await run(phone, "echo phone-ok");
    await waitForText(phone, /^phone-ok$/m);
    await browser.screenshot(phone, "terminal-phone");
    browser.assertNoErrors();
  });
}, sandboxMissing);
