// The Files view changing the workspace in a real browser: edit and save a file in the code
// editor (and the prompt when the file changed on disk meanwhile), rename and delete from the
// tree (and restore from Recently deleted), upload by drag-drop onto a folder, and the tree
// following changes made on disk by someone else.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";

async function writeWorkspace(root: string): Promise<void> {
  await Deno.mkdir(join(root, "src"), { recursive: true });
  await Deno.mkdir(join(root, "docs"), { recursive: true });
  await Deno.writeTextFile(join(root, "src/app.ts"), "export const a = 1;\n");
  await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n");
}

const treePaths = (page: Page) =>
  page.locator("[data-file-tree] [role=treeitem]:visible").evaluateAll((els) =>
    els.map((e) => (e as HTMLElement).dataset.path)
  );

/** No errors but the refusals a test provoked on purpose (Chromium logs each 4xx). */
function assertOnlyExpected(errors: string[], statuses: number[]): void {
  const expected = (e: string) =>
    statuses.some((s) =>
      e.includes(`Failed to load resource: the server responded with a status of ${s}`)
    );
  assertEquals(errors.filter((e) => !expected(e)), []);
}

async function openPanel(page: Page, url: string, sid: string): Promise<void> {
  await page.goto(`${url}/?session=${sid}`);
  await waitForIslands(page);
  await page.locator(".topbar [data-action='toggle-workspace']").click();
  await page.locator("[data-file-tree] [data-path='notes.md']").waitFor();
}

browserTest(
  "edit and save a file; a file changed on disk asks overwrite / reload / cancel",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await writeWorkspace(app.workspace);
      const file = join(app.workspace, "src/app.ts");
      const page = await browser.newPage();
      await openPanel(page, url, seeded.withTranscript);
      await page.locator("[data-path='src'] > .tree-row").click();
      await page.locator("[data-path='src/app.ts'] > .tree-row").click();
      await page.locator("[data-preview-body] .code-view").waitFor();
      await page.locator("[data-action='preview-edit']").click();
      const editor = page.locator("[data-editor] .cm-content");
      await editor.waitFor();
      // Syntax mode: TypeScript keywords are highlighted by CodeMirror.
      const keyword = page.locator("[data-editor] .tok-keyword").first();
      await keyword.waitFor();
      const colors = await keyword.evaluate((k) => [
        getComputedStyle(k).color,
        getComputedStyle(k.closest(".cm-line")!).color,
      ]);
      assert(colors[0] !== colors[1], `keywords are coloured: ${colors}`);
      await editor.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("export const b = 2;\n");
      strictEqual(await page.locator("[data-editor-status]").textContent(), "Modified");
      await page.locator("[data-editor-save]").click();
      await page.locator("[data-editor-status]", { hasText: "Saved ·" }).waitFor();
      strictEqual(await Deno.readTextFile(file), "export const a = 1;\nexport const b = 2;\n");
      await browser.screenshot(page, "files-editor-saved");

      // The agent changes the file; saving now asks.
      await Deno.writeTextFile(file, "export const agent = true;\n");
      await editor.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("// mine\n");
      await page.keyboard.press("Control+s");
      const dialog = page.locator("dialog[data-dialog='save-conflict']");
      await dialog.waitFor();
      await browser.screenshot(page, "files-editor-conflict");
      strictEqual(await Deno.readTextFile(file), "export const agent = true;\n", "nothing written");
      // Reload: the editor shows the disk's version, the edits are gone.
      await dialog.locator("[data-conflict='reload']").click();
      await page.locator("[data-editor-status]", { hasText: "Reloaded from disk" }).waitFor();
      strictEqual(
        (await editor.textContent())!.replace(/\s+$/, ""),
        "export const agent = true;",
      );
      // Again, and this time overwrite.
      await Deno.writeTextFile(file, "export const agent = 2;\n");
      await editor.click();
      await page.keyboard.press("Control+Home");
      await page.keyboard.type("// top\n");
      await page.locator("[data-editor-save]").click();
      await dialog.waitFor();
      await dialog.locator("[data-dialog-confirm]").click();
      await page.locator("[data-editor-status]", { hasText: "Saved ·" }).waitFor();
      strictEqual(await Deno.readTextFile(file), "// top\nexport const agent = true;\n");
      // And cancel keeps editing without writing.
      await Deno.writeTextFile(file, "third\n");
      await editor.click();
      await page.keyboard.type("x");
      await page.locator("[data-editor-save]").click();
      await dialog.waitFor();
      await dialog.locator("button[value='cancel']").click();
      await page.locator("[data-editor-status]", { hasText: "Not saved" }).waitFor();
      strictEqual(await Deno.readTextFile(file), "third\n");
      assertOnlyExpected(browser.errors, [409]);
    });
  },
);

browserTest("rename and delete from the tree, restore from Recently deleted", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const seeded = await seedApp(app, { dark: true });
    await writeWorkspace(app.workspace);
    const page = await browser.newPage();
    await openPanel(page, url, seeded.withTranscript);

    // Rename through the row's menu (right-click).
    await page.locator("[data-path='notes.md'] > .tree-row").click({ button: "right" });
    await page.locator("[data-menu-action='rename']").click();
    const nameDialog = page.locator("dialog[data-dialog='file-name']");
    await nameDialog.locator("[data-name-input]").fill("journal.md");
    await browser.screenshot(page, "files-rename");
    await nameDialog.locator("[data-dialog-confirm]").click();
    await page.locator("[data-file-tree] [data-path='journal.md']").waitFor();
    assertEquals(await treePaths(page), ["docs", "src", "journal.md"]);
    strictEqual(await Deno.readTextFile(join(app.workspace, "journal.md")), "# Notes\n");

    // A taken name is refused in the dialog, which stays open.
    await page.locator("[data-path='journal.md']").focus();
    await page.keyboard.press("F2");
    await nameDialog.locator("[data-name-input]").fill("src");
    await nameDialog.locator("[data-dialog-confirm]").click();
    await nameDialog.locator(".dialog-error", { hasText: "already exists" }).waitFor();
    await nameDialog.locator("button[value='cancel']").click();

    // Delete with the keyboard; it goes to Recently deleted.
    await page.locator("[data-path='journal.md']").focus();
    await page.keyboard.press("Delete");
    const del = page.locator("dialog[data-dialog='file-delete']");
    await del.waitFor();
    await del.locator("[data-dialog-confirm]").click();
    await page.locator("[data-file-tree] [data-path='journal.md']").waitFor({ state: "detached" });
    assertEquals(await treePaths(page), ["docs", "src"]);

    await page.locator("[data-action='panel-more']").click();
    await page.locator("[data-menu-action='trash']").click();
    const trash = page.locator("dialog[data-dialog='trash']");
    await trash.locator("[data-trash-path='journal.md']").waitFor();
    await browser.screenshot(page, "files-trash");
    await trash.locator("[data-trash-path='journal.md'] button").click();
    await trash.locator("[role=status]", { hasText: "Restored journal.md" }).waitFor();
    await trash.locator("button[value='cancel']").click();
    await page.locator("[data-file-tree] [data-path='journal.md']").waitFor();
    strictEqual(await Deno.readTextFile(join(app.workspace, "journal.md")), "# Notes\n");
    assertOnlyExpected(browser.errors, [400]);
  });
});

browserTest(
  "drag-drop uploads into the folder dropped on; disk changes show up by themselves",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await writeWorkspace(app.workspace);
      const page = await browser.newPage();
      await openPanel(page, url, seeded.withTranscript);

      const dt = await page.evaluateHandle(() => {
        const d = new DataTransfer();
        d.items.add(new File(["dropped text"], "dropped.txt", { type: "text/plain" }));
        return d;
      });
      const target = page.locator("[data-path='docs'] > .tree-row");
      await target.dispatchEvent("dragenter", { dataTransfer: dt });
      await target.dispatchEvent("dragover", { dataTransfer: dt });
      strictEqual(
        await page.locator("[data-path='docs']").getAttribute("data-drop-target"),
        "true",
      );
      await browser.screenshot(page, "files-drop-target");
      await target.dispatchEvent("drop", { dataTransfer: dt });
      await page.locator("[data-files-status]", { hasText: "Uploaded docs/dropped.txt" }).waitFor();
      strictEqual(await Deno.readTextFile(join(app.workspace, "docs/dropped.txt")), "dropped text");
      await page.locator("[data-path='docs'] > .tree-row").click();
      await page.locator("[data-file-tree] [data-path='docs/dropped.txt']").waitFor();

      // Someone else (the agent) creates a file: the tree shows it without a refresh.
      await Deno.writeTextFile(join(app.workspace, "docs/from-agent.md"), "hi");
      await page.locator("[data-file-tree] [data-path='docs/from-agent.md']").waitFor();
      strictEqual(
        await page.locator("[data-path='docs']").getAttribute("aria-expanded"),
        "true",
        "the open folder stays open",
      );

      // The phone layout, for the record.
      const phone = await browser.newPage({ width: 390, height: 844 });
      await phone.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(phone);
      await phone.locator(".topbar [data-action='toggle-workspace']").first().click();
      await phone.locator("[data-file-tree] [data-path='docs']").waitFor();
      await phone.locator("[data-path='notes.md'] > .tree-row").click({ button: "right" });
      await phone.locator("[data-menu-action='rename']").waitFor();
      await browser.screenshot(phone, "files-phone-menu");
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "a new chat's panel shows its workspace; the panel resizes and keeps its width; workspace:// links open files",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await writeWorkspace(app.workspace);
      const page = await browser.newPage();
      // New chat: the panel lists the default workspace (no session yet).
      await page.goto(`${url}/`);
      await waitForIslands(page);
      await page.locator(".topbar [data-action='toggle-workspace']").click();
      await page.locator("[data-file-tree] [data-path='notes.md']").waitFor();
      await page.locator("[data-new-chat-note]").waitFor();
      await browser.screenshot(page, "files-new-chat");

      // Resize by dragging the handle 200 px to the left; a reload paints the same width.
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      const panel = page.locator("#workspace-panel");
      await panel.waitFor();
      const before = (await panel.boundingBox())!.width;
      const handle = (await page.locator("[data-panel-resize]").boundingBox())!;
      await page.mouse.move(handle.x + 3, handle.y + 200);
      await page.mouse.down();
      await page.mouse.move(handle.x - 100, handle.y + 200, { steps: 5 });
      await page.mouse.move(handle.x - 197, handle.y + 200, { steps: 5 });
      await page.mouse.up();
      const after = (await panel.boundingBox())!.width;
      assert(Math.abs(after - (before + 200)) <= 4, `${before} → ${after}`);
      const html = await (await page.reload())!.text();
      assert(html.includes(`--panel-width:${Math.round(after)}px`), "the server paints the width");
      await waitForIslands(page);
      assert(Math.abs((await panel.boundingBox())!.width - after) <= 2);
      await browser.screenshot(page, "files-resized");

      // A workspace:// link in an answer opens the file in the panel (and is never followed).
      await page.evaluate(() => {
        const a = document.createElement("a");
        a.href = "workspace://src/app.ts";
        a.textContent = "src/app.ts";
        a.id = "ws-link";
        document.querySelector(".transcript-inner")!.append(a);
      });
      const at = page.url();
      await page.locator("#ws-link").click();
      await page.locator("[data-preview-path]", { hasText: "src/app.ts" }).waitFor();
      strictEqual(page.url(), at);
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "the workspace switcher renames, reorders and removes workspaces and suggests folders",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      const home = join(app.stateDir, "..");
      const paths: string[] = [];
      for (const n of ["alpha", "beta"]) {
        await Deno.mkdir(join(home, n));
        const r = await app.call<{ workspace: { path: string } }>("POST", "/api/workspaces/add", {
          path: join(home, n),
        });
        paths.push(r.body.workspace.path);
      }
      await Deno.mkdir(join(home, "code/repo-x/.git"), { recursive: true });
      const page = await browser.newPage();
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await page.locator('[data-chip="workspace"]').click();
      const menu = page.locator('[data-popover="workspace"]');
      await menu.locator("[data-workspace-manage-open]").click();
      const manage = menu.locator("[data-workspace-manage]");
      const rows = () =>
        manage.locator(".workspace-manage-row").evaluateAll((els) =>
          els.map((e) => (e as HTMLElement).dataset.path)
        );
      await manage.locator(`[data-path="${paths[1]}"]`).waitFor();
      // Move beta above alpha.
      await manage.locator(`[data-path="${paths[1]}"] [data-move-up]`).click();
      await page.waitForFunction(
        (p) =>
          document.querySelector(".workspace-manage-row:nth-child(2)")?.getAttribute(
            "data-path",
          ) === p,
        paths[1],
      );
      assertEquals((await rows()).slice(1), [paths[1], paths[0]]);
      // Rename alpha.
      const name = manage.locator(`[data-path="${paths[0]}"] .workspace-manage-name`);
      await name.fill("Alpha project");
      await name.press("Enter");
      await page.waitForFunction(
        (p) =>
          (document.querySelector(
            `.workspace-manage-row[data-path="${p}"] input`,
          ) as HTMLInputElement)
            ?.value === "Alpha project",
        paths[0],
      );
      await browser.screenshot(page, "workspaces-manage");
      // Remove beta.
      await manage.locator(`[data-path="${paths[1]}"] [data-remove]`).click();
      await manage.locator(`[data-path="${paths[1]}"]`).waitFor({ state: "detached" });
      const listed = await app.call<{ workspaces: { path: string; name: string }[] }>(
        "GET",
        "/api/workspaces",
      );
      assertEquals(listed.body.workspaces.slice(1).map((w) => [w.path, w.name]), [
        [paths[0], "Alpha project"],
      ]);
      // Suggestions in the add field: the git repo under home.
      await manage.locator(".workspace-manage-open").click();
      await menu.locator(".workspace-add-open").click();
      await page.waitForFunction(() =>
        [...document.querySelectorAll("[data-workspace-suggestions] option")].some((o) =>
          (o as HTMLOptionElement).value.endsWith("/code/repo-x")
        )
      );
      browser.assertNoErrors();
    });
  },
);
