// Passkeys in a real browser with Chromium's virtual authenticator (CDP WebAuthn domain):
// log in with the password, add a passkey from the Control Center, log out, then sign in with
// the passkey from /login, which offers the button only once a passkey exists; then remove it.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { browserTest, launchBrowser } from "./browser.ts";

const PASSWORD = "correct horse battery staple";

browserTest(
  "passkey: register from the Control Center, log out, sign in with it, remove it",
  async () => {
    const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
    const server = serveTestApp(app);
    // WebAuthn needs a host name as RP ID (an IP address cannot be one): localhost.
    const base = server.url.replace("127.0.0.1", "localhost");
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ width: 1200, height: 800 });
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      await page.goto(`${base}/login`);
      strictEqual(await page.locator("#login-passkey").count(), 0, "no passkey yet: no button");
      strictEqual(await page.locator('script[src*="passkeys"]').count(), 0, "and no script");
      await page.fill("#login-password", PASSWORD);
      await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.click("#login-submit")]);

      await page.locator('[data-action="control-center"]').first().click();
      await page.locator('[data-cc-tab="system"]').click();
      const section = page.locator('[data-cc-block="passkeys"]');
      await section.locator('input[name="name"]').fill("Virtual key");
      await section.locator("button[data-passkey-add]").click();
      await page.locator("[data-passkey-list] [data-passkey-id]").first().waitFor();
      ok((await section.textContent())?.includes("Virtual key"));
      ok((await section.textContent())?.includes("last used never"));
      await browser.screenshot(page, "passkey-registered");
      const creds = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      strictEqual(creds.credentials.length, 1, "the authenticator holds the new credential");

      const out = await page.evaluate(() =>
        fetch("/api/auth/logout", { method: "POST" }).then((r) => r.status)
      );
      strictEqual(out, 200);
      await page.goto(`${base}/?after=passkey`);
      strictEqual(new URL(page.url()).pathname, "/login");
      await page.locator("#login-passkey").waitFor();
      await browser.screenshot(page, "passkey-login-page");
      await Promise.all([
        page.waitForURL((u) => u.pathname === "/"),
        page.click("#login-passkey"),
      ]);
      strictEqual(new URL(page.url()).search, "?after=passkey");
      const status = await page.evaluate(() => fetch("/api/auth/status").then((r) => r.json()));
      strictEqual(status.logged_in, true);
      strictEqual(status.passkeys_enabled, true);
      const list = await page.evaluate(() => fetch("/api/auth/passkeys").then((r) => r.json()));
      ok(typeof list.passkeys[0].last_used_at === "number", "the sign-in is recorded");

      // Remove it from the Control Center: the list empties and /login stops offering it.
      await page.locator('[data-action="control-center"]').first().click();
      await page.locator('[data-cc-tab="system"]').click();
      const row = page.locator("[data-passkey-list] [data-passkey-id]").first();
      await row.locator("[data-cc-ask]").click();
      await row.locator('button[data-cc-action="passkey-remove"]').click();
      await page.locator("[data-passkey-empty]").waitFor();
      await browser.screenshot(page, "passkey-removed");
      const after = await page.evaluate(() => fetch("/api/auth/status").then((r) => r.json()));
      strictEqual(after.passkeys_enabled, false);

      const unexpected = browser.errors.filter((e) => !/status of 401/.test(e));
      strictEqual(unexpected.length, 0, unexpected.join("\n"));
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
    }
  },
);
