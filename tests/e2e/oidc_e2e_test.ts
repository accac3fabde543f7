// Sign-in through OpenID Connect in a real browser against a real provider (oidc-provider on
// a loopback port, its development login and consent pages): /login offers "Sign in with
// <provider>", an allowlisted user lands in the console, another user gets the refusal page.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "../helpers.ts";
import { startOidcProvider } from "../fixtures/oidc_provider.ts";
import { browserTest, launchBrowser, type Page } from "./browser.ts";

const PASSWORD = "correct horse battery staple";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: "attached" });
  await page.locator('button[type="submit"]').click();
}

browserTest(
  "OIDC: the login page's provider button signs in an allowlisted user, refuses another",
  async () => {
    const port = freePort();
    const base = `http://localhost:${port}`;
    const idp = await startOidcProvider([`${base}/api/auth/oidc/callback`], {
      alice: { email: "alice@example.com" },
      mallory: { email: "mallory@example.com" },
    });
    const app = await createTestApp({
      env: {
        HERMES_WEBUI_PASSWORD: PASSWORD,
        HERMES_WEBUI_OIDC_ISSUER: idp.issuer,
        HERMES_WEBUI_OIDC_CLIENT_ID: idp.clientId,
        HERMES_WEBUI_OIDC_CLIENT_SECRET: idp.clientSecret,
        HERMES_WEBUI_OIDC_ALLOWED_EMAILS: "alice@example.com",
        HERMES_WEBUI_OIDC_SCOPES: "openid email",
        HERMES_WEBUI_OIDC_PROVIDER_NAME: "Test IdP",
      },
    });
    const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, app.fetch);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ width: 1024, height: 760 });
      const missing: string[] = [];
      page.on("response", (r) => {
        if (r.status() === 404) missing.push(r.url());
      });
      await page.goto(`${base}/?from=oidc`);
      strictEqual(new URL(page.url()).pathname, "/login");
      const button = page.locator("#login-oidc");
      strictEqual((await button.textContent())?.trim(), "Sign in with Test IdP");
      await browser.screenshot(page, "oidc-login-page");
      await button.click();
      await page.waitForURL((u) => u.origin === idp.issuer);
      await signInAtProvider(page, "alice");
      await page.waitForURL((u) => u.origin === base && u.pathname === "/");
      strictEqual(new URL(page.url()).search, "?from=oidc");
      const status = await page.evaluate(() => fetch("/api/auth/status").then((r) => r.json()));
      strictEqual(status.logged_in, true);
      strictEqual(status.oidc_enabled, true);

      // Leave the signed-in page before dropping its cookie: its polls (attention, approvals)
      // would otherwise meet the signed-out server, and the browser logs each 401 it answers.
      await page.goto("about:blank");
      await browser.context.clearCookies();
      await page.goto(`${base}/login`);
      await page.locator("#login-oidc").click();
      await page.waitForURL((u) => u.origin === idp.issuer);
      await signInAtProvider(page, "mallory");
      await page.locator("#sign-in-refused").waitFor();
      ok(
        (await page.textContent("#sign-in-refused"))?.includes(
          "mallory@example.com is not allowed",
        ),
      );
      await browser.screenshot(page, "oidc-refused");
      const cookies = await browser.context.cookies(base);
      ok(!cookies.some((c) => c.name === "hermes_session"), "a refused user gets no session");

      // The provider's dev pages load a web font this sandbox cannot reach, and the browser
      // asks the provider for a favicon it lacks; nothing on the console's side fails.
      ok(missing.every((u) => u.startsWith(idp.issuer)), missing.join("\n"));
      const unexpected = browser.errors.filter((e) =>
        !/status of (403|404)|fonts\.googleapis|net::ERR_/.test(e)
      );
      strictEqual(unexpected.length, 0, unexpected.join("\n"));
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
      await idp.close();
    }
  },
);
