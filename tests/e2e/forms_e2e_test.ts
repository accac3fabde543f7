// One form style: the edit-message box, the New file dialog, the rollback dialog and Control
// Center › Logs share the dialogs' field, label and button styles in the sans UI font (a single
// accent border on focus, no second outline; labels apart from their fields; buttons in one row
// at the end; forms start-aligned). Files › New file `notes/todo.md` makes the missing folder and
// opens the file; after a save the editor's header shows the size once. Screenshots:
// /tmp/shots_phone/.
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { browserTest, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const SHOTS = "/tmp/shots_phone";

async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: "disabled" });
}

/** How a text field looks while it has focus. */
function fieldLook(field: Locator) {
  return field.evaluate((el) => {
    (el as HTMLElement).focus();
    const s = getComputedStyle(el);
    return {
      font: s.fontFamily,
      border: s.borderTopWidth,
      outline: s.outlineStyle === "none" ? 0 : parseFloat(s.outlineWidth),
      background: s.backgroundColor,
      radius: s.borderTopLeftRadius,
    };
  });
}

/** The dialogs' field: sans, one 1 px border, no outline on top of it, never stark white. */
function assertSharedField(look: Awaited<ReturnType<typeof fieldLook>>, what: string): void {
  assert(!/georgia|serif"?$/i.test(look.font.replace(/sans-serif/i, "")), `${what}: ${look.font}`);
  strictEqual(look.border, "1px", `${what}: border`);
  strictEqual(look.outline, 0, `${what}: a second outline around the border`);
  assert(look.background !== "rgb(255, 255, 255)", `${what}: stark white`);
  strictEqual(look.radius, "8px", `${what}: radius`);
}

/** Buttons side by side (one row), the row ending at the form's end. */
async function assertButtonRow(buttons: Locator, form: Locator, what: string): Promise<void> {
  const boxes = await buttons.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), right: r.right };
    })
  );
  assert(boxes.length >= 2, `${what}: buttons`);
  deepStrictEqual(
    new Set(boxes.map((b) => b.top)).size,
    1,
    `${what}: one row ${JSON.stringify(boxes)}`,
  );
  const end = (await form.boundingBox())!;
  const last = Math.max(...boxes.map((b) => b.right));
  assert(Math.abs(end.x + end.width - last) <= 2, `${what}: the row ends at the form's end`);
}

browserTest(
  "the edit box and the New file dialog share the dialogs' field and buttons",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app);
      await Deno.writeTextFile(join(app.workspace, "notes.md"), "# Notes\n");
      for (const theme of ["light", "dark"] as const) {
        await app.call("POST", "/api/settings", { theme });
        const page = await browser.newPage({ width: 1280, height: 800 });
        await page.goto(`${url}/?session=${seeded.withTranscript}`);
        await waitForIslands(page);

        // Edit & resend.
        await page.locator(".msg-user").first().hover();
        await page.locator('[data-action="edit-user"]').first().click();
        const edit = page.locator(".msg-edit");
        assertSharedField(await fieldLook(edit.locator("textarea")), "edit box");
        strictEqual(await edit.locator("textarea").getAttribute("dir"), "auto");
        await assertButtonRow(edit.locator("button"), edit, "edit box");
        await shot(page, `forms-edit-box-${theme}`);
        await edit.getByRole("button", { name: "Cancel" }).click();

        // Files › New file.
        if (!(await page.locator("#workspace-panel").isVisible())) {
          await page.locator(".topbar [data-action='toggle-workspace']").click();
        }
        await page.locator("[data-file-tree] [data-path='notes.md']").waitFor();
        await page.locator("[data-action='panel-more']").click();
        await page.locator("[data-menu-action='new-file']").click();
        const dialog = page.locator("dialog[data-dialog='file-name']");
        const input = dialog.locator("[data-name-input]");
        assertSharedField(await fieldLook(input), "New file");
        // The label sits above its field, apart from it.
        const label = await dialog.locator("label").evaluate((el) => {
          const r = document.createRange();
          r.selectNodeContents(el.firstChild!);
          return r.getBoundingClientRect().bottom;
        });
        const field = (await input.boundingBox())!;
        assert(field.y - label >= 4, `the label touches its field (${field.y - label}px)`);
        await assertButtonRow(
          dialog.locator(".dialog-actions button"),
          dialog.locator("form"),
          "New file",
        );
        await shot(page, `forms-new-file-${theme}`);
        await page.keyboard.press("Escape");
        await page.close();
      }
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "New file notes/todo.md makes notes/, opens it; a save shows the size once",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await Deno.writeTextFile(join(app.workspace, "notes.md"), "# Notes\n");
      const page = await browser.newPage({ width: 1280, height: 800 });
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await page.locator(".topbar [data-action='toggle-workspace']").click();
      await page.locator("[data-file-tree] [data-path='notes.md']").waitFor();
      await page.locator("[data-action='panel-more']").click();
      await page.locator("[data-menu-action='new-file']").click();
      const dialog = page.locator("dialog[data-dialog='file-name']");
      await dialog.locator("[data-name-input]").fill("notes/todo.md");
      await dialog.locator("[data-dialog-confirm]").click();
      await dialog.waitFor({ state: "detached" });
      strictEqual(await Deno.readTextFile(join(app.workspace, "notes/todo.md")), "");

      // It opened in the editor: write, save, and read the header.
      const editor = page.locator("[data-editor] .cm-content");
      await editor.waitFor();
      await editor.click();
      await page.keyboard.type("buy milk\ncall Ana\n");
      await page.locator("[data-editor-save]").click();
      await page.locator("[data-editor-status]", { hasText: "Saved ·" }).waitFor();
      const head = await page.locator("[data-file-preview]").evaluate((el) => {
        const meta = el.querySelector("[data-preview-meta]")?.textContent ?? "";
        const status = el.querySelector("[data-editor-status]")?.textContent ?? "";
        return { meta, status };
      });
      const sizes = `${head.meta} ${head.status}`.match(/\d+(\.\d+)?\s?(B|KB|MB)\b/g) ?? [];
      strictEqual(sizes.length, 1, `one size in the header: ${JSON.stringify(head)}`);
      assert(/^2 lines$/.test(head.meta.trim()), `the header keeps the line count: "${head.meta}"`);
      strictEqual(
        await Deno.readTextFile(join(app.workspace, "notes/todo.md")),
        "buy milk\ncall Ana\n",
      );
      await shot(page, "forms-editor-saved");
      browser.assertNoErrors();
    });
  },
);

browserTest("Control Center › Logs is a start-aligned form like the others", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    await seedApp(app, { dark: true });
    const page = await browser.newPage({ width: 1280, height: 800 });
    await page.goto(`${url}/`);
    await waitForIslands(page);
    await page.locator('[data-action="control-center"]').click();
    await page.locator('[data-cc-tab="logs"]').click();
    const form = page.locator('[data-cc-form="logs-filter"]');
    await form.waitFor();
    const box = (await form.boundingBox())!;
    const label = (await form.locator(".cc-label").boundingBox())!;
    assert(label.x - box.x <= 2, `the label starts the form (${label.x - box.x}px in)`);
    const level = (await form.locator("select").boundingBox())!;
    const apply = (await form.locator('button[type="submit"]').boundingBox())!;
    assert(Math.abs(level.y + level.height / 2 - (label.y + label.height / 2)) <= 4, "one row");
    assert(apply.x > level.x, "the buttons follow the fields");
    await shot(page, "forms-logs");
    browser.assertNoErrors();
  });
});

browserTest("the rollback dialog's title and buttons are the dialogs' own (sans)", async () => {
  const f = await transcriptFixture();
  try {
    await f.open();
    await f.h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_w",
          name: "write_file",
          args: { path: "plan.txt", content: "the plan\n" },
        }],
      },
      { text: "Wrote the plan." },
    );
    await f.send("Write a plan");
    await f.settled();
    const turn = f.page.locator(".turns-live .turn").last();
    await turn.locator(".activity > summary").click();
    const card = turn.locator(".tool-card[data-tool='write_file']");
    await card.locator(".tool-head").click();
    await card.getByRole("button", { name: "Undo this change" }).click();
    const dialog = f.page.locator(".rollback-dialog");
    await dialog.locator(".rollback-diff").waitFor();
    const title = await dialog.locator("h2").evaluate((el) => getComputedStyle(el).fontFamily);
    assert(!/georgia/i.test(title), `the title is sans: ${title}`);
    const looks = await dialog.locator(".rollback-actions button").evaluateAll((els) =>
      els.map((el) => {
        const s = getComputedStyle(el);
        return `${s.fontFamily}|${s.fontSize}|${s.borderTopLeftRadius}|${s.paddingTop}`;
      })
    );
    // The same buttons as every dialog's (static/style.css .btn): 8 px radius, 6 px padding.
    for (const look of looks) assert(/\|8px\|6px$/.test(look), `a dialog button: ${look}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
