// Share links: a frozen, read-only snapshot at /share/<token> that works without logging in
// (and nothing else does), leaves tool output and file contents out unless asked, expires and
// revokes into the same 404 as a guessed token, and keeps hostile model output inert.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers.ts";
import { appendMessages, type NewMessage } from "../../lib/sessions/messages.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { newShareToken, TOKEN_RE } from "../../lib/sharing/shares.ts";

const PASSWORD = "correct horse battery staple";

interface ShareBody {
  ok: boolean;
  share: {
    token: string;
    url: string;
    created_at: number;
    expires_at: number | null;
    active: boolean;
    include_tools: boolean;
  };
}

async function seedSession(
  app: TestApp,
  title = "Shared Test",
  extra: NewMessage[] = [],
): Promise<string> {
  const { session_id } = await createSession(app.ctx.db, app.ctx.clock, {
    workspace: app.workspace,
    title,
  });
  await appendMessages(app.ctx.db, app.ctx.clock, session_id, [
    { role: "user", content: "Please look at the repo" },
    {
      role: "assistant",
      content: "",
      reasoning: "PRIVATE_THOUGHT about the user",
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "terminal", arguments: JSON.stringify({ command: "ls -la" }) },
        },
        {
          id: "c2",
          type: "function",
          function: { name: "read_file", arguments: JSON.stringify({ path: "secrets.env" }) },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "SECRET_TOOL_OUTPUT total 42" },
    { role: "tool", tool_call_id: "c2", content: "FILE_CONTENT_API_KEY=abc123" },
    { role: "assistant", content: "Here is a **concise** summary." },
    ...extra,
  ]);
  return session_id;
}

async function share(app: TestApp, body: Record<string, unknown>, headers = {}) {
  return await app.call<ShareBody>("POST", "/api/share/create", body, headers);
}

async function getPage(app: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await app.request("GET", path, undefined, headers);
  return { res, html: await res.text() };
}

Deno.test("POST /api/share/create makes a link that list shows and revoke ends", async () => {
  const app = await createTestApp();
  try {
    const sid = await seedSession(app);
    const created = await share(app, { session_id: sid });
    strictEqual(created.status, 200, JSON.stringify(created.body));
    strictEqual(created.body.ok, true);
    const { token, url, expires_at } = created.body.share;
    match(token, TOKEN_RE, "256-bit base64url token");
    const many = new Set(Array.from({ length: 200 }, () => newShareToken()));
    strictEqual(many.size, 200, "tokens do not repeat");
    ok([...many].every((t) => TOKEN_RE.test(t)));
    strictEqual(url, `/share/${token}`);
    strictEqual(expires_at, null, "no expiry unless asked");

    const page = await getPage(app, url);
    strictEqual(page.res.status, 200);
    ok(page.html.includes("Shared Test"), "the title");
    ok(page.html.includes("Please look at the repo"), "the user's message");
    ok(page.html.includes("<strong>concise</strong>"), "prose rendered as the console does");

    const list = await app.call<{ shares: ShareBody["share"][] }>("GET", "/api/share/list");
    deepStrictEqual(list.body.shares.map((s) => [s.token, s.active]), [[token, true]]);

    const revoked = await app.call<ShareBody>("POST", "/api/share/revoke", { token });
    strictEqual(revoked.status, 200);
    strictEqual(revoked.body.share.active, false);
    strictEqual((await getPage(app, url)).res.status, 404, "a revoked link is gone");
    const after = await app.call<{ shares: ShareBody["share"][] }>("GET", "/api/share/list");
    strictEqual(after.body.shares[0].active, false, "listed as revoked");

    // The original's revoke-by-session form revokes every link of that session.
    const again = await share(app, { session_id: sid });
    const bySession = await app.call("POST", "/api/share/revoke", { session_id: sid });
    deepStrictEqual(bySession.body, { ok: true, revoked: 1 });
    strictEqual((await getPage(app, again.body.share.url)).res.status, 404);

    strictEqual((await app.call("POST", "/api/share/revoke", { token: "nope" })).status, 404);
    strictEqual((await share(app, { session_id: "000000000000" })).status, 404);
    strictEqual((await share(app, {})).status, 400);
    strictEqual((await share(app, { session_id: sid, expires_in_days: 0 })).status, 400);
    strictEqual((await share(app, { session_id: sid, expires_in_days: "7" })).status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("a share link expires after expires_in_days into the same 404 as a guess", async () => {
  let now = 1_700_000_000;
  const app = await createTestApp({ clock: () => now });
  try {
    const sid = await seedSession(app);
    const { body } = await share(app, { session_id: sid, expires_in_days: 2 });
    strictEqual(body.share.expires_at, now + 2 * 86400);
    now += 2 * 86400 - 60;
    strictEqual((await getPage(app, body.share.url)).res.status, 200, "still valid");
    now += 120;
    const expired = await getPage(app, body.share.url);
    strictEqual(expired.res.status, 404, "expired");
    const guessed = await getPage(app, `/share/${newShareToken()}`);
    strictEqual(guessed.res.status, 404);
    strictEqual(expired.html, guessed.html, "the 404 does not say why");
  } finally {
    await app.close();
  }
});

Deno.test("revokeShare() keeps the first revocation time; an unknown token is a 404", async () => {
  let now = 1_700_000_000;
  const app = await createTestApp({ clock: () => now });
  try {
    const sid = await seedSession(app);
    const { body } = await share(app, { session_id: sid });
    const first = await app.call<ShareBody & { share: { revoked_at: number | null } }>(
      "POST",
      "/api/share/revoke",
      { token: body.share.token },
    );
    strictEqual(first.body.share.revoked_at, now);
    now += 60;
    const second = await app.call<ShareBody & { share: Record<string, unknown> }>(
      "POST",
      "/api/share/revoke",
      { token: body.share.token },
    );
    strictEqual(second.status, 200, "revoking twice is fine");
    strictEqual(second.body.share.revoked_at, now - 60, "the first revocation time stays");
    // A share carries its own fields only (PostgreSQL's tables also have a `rowid`).
    deepStrictEqual(Object.keys(second.body.share).sort(), [
      "active",
      "created_at",
      "expires_at",
      "include_files",
      "include_tools",
      "revoked_at",
      "session_id",
      "title",
      "token",
      "url",
    ]);
    const unknown = await app.call("POST", "/api/share/revoke", { token: newShareToken() });
    strictEqual(unknown.status, 404);
  } finally {
    await app.close();
  }
});

Deno.test("guessed, altered and malformed tokens all get the same 404 page", async () => {
  const app = await createTestApp();
  try {
    const sid = await seedSession(app);
    const { body } = await share(app, { session_id: sid });
    const t = body.share.token;
    const altered = t.slice(0, -1) + (t.endsWith("A") ? "B" : "A");
    const pages: string[] = [];
    for (
      const path of [
        `/share/${newShareToken()}`,
        `/share/${altered}`,
        `/share/${t.toLowerCase() === t ? t.toUpperCase() : t.toLowerCase()}`,
        `/share/${t.slice(0, 20)}`,
        "/share/%27%20OR%201%3D1",
        `/share/${"a".repeat(5000)}`,
      ]
    ) {
      const p = await getPage(app, path);
      strictEqual(p.res.status, 404, path.slice(0, 60));
      strictEqual(p.res.headers.get("x-robots-tag"), "noindex, nofollow");
      pages.push(p.html);
    }
    ok(pages.every((h) => h === pages[0]), "one 404 page for every miss");
    ok(pages[0].includes("This link is not available"));
    ok(!/revoked|expired/i.test(pages[0]));
  } finally {
    await app.close();
  }
});

Deno.test("tool outputs and file contents are shared only when ticked; reasoning never", async () => {
  const app = await createTestApp();
  try {
    const sid = await seedSession(app, "Shared Test", [
      { role: "user", content: "And the notes?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          id: "c3",
          type: "function",
          function: { name: "terminal", arguments: JSON.stringify({ command: "cat notes.txt" }) },
        }],
      },
      { role: "tool", tool_call_id: "c3", content: "NOTES_FILE_CONTENT: the launch date" },
      { role: "assistant", content: "Those are the notes." },
    ]);
    const plain = (await getPage(app, (await share(app, { session_id: sid })).body.share.url))
      .html;
    ok(!plain.includes("SECRET_TOOL_OUTPUT"), "tool output left out by default");
    ok(!plain.includes("ls -la"), "tool arguments left out by default");
    ok(!plain.includes("FILE_CONTENT"), "file contents left out by default");
    ok(!plain.includes("NOTES_FILE_CONTENT"));
    ok(plain.includes("2 tool calls not shared"), "only the count is shown");

    const tools = (await getPage(
      app,
      (await share(app, { session_id: sid, include_tools: true })).body.share.url,
    )).html;
    ok(tools.includes("ls -la"), "tool arguments when asked");
    ok(tools.includes("cat notes.txt"));
    // A shell prints files as well as a file tool does: without the files tick no tool's
    // output is shared (the review's leak: `cat notes.txt` in the terminal).
    ok(!tools.includes("SECRET_TOOL_OUTPUT"), "tool output needs the files tick too");
    ok(!tools.includes("NOTES_FILE_CONTENT"), "a file printed by the terminal is not shared");
    ok(!tools.includes("FILE_CONTENT"), "file contents still need their own tick");
    ok(tools.includes("File contents were not shared"));
    ok(tools.includes("Output was not shared: it may hold file contents."));

    const files = (await getPage(
      app,
      (await share(app, { session_id: sid, include_tools: true, include_files: true })).body
        .share.url,
    )).html;
    ok(files.includes("FILE_CONTENT_API_KEY=abc123"), "file contents when asked");
    ok(files.includes("SECRET_TOOL_OUTPUT"), "tool output when files are included");
    ok(files.includes("NOTES_FILE_CONTENT"));

    for (const html of [plain, tools, files]) {
      ok(!html.includes("PRIVATE_THOUGHT"), "reasoning is never shared");
      ok(!html.includes(app.workspace), "the workspace path is not shared");
    }
  } finally {
    await app.close();
  }
});

Deno.test("the snapshot is frozen at share time", async () => {
  const app = await createTestApp();
  try {
    const sid = await seedSession(app, "Before");
    const { body } = await share(app, { session_id: sid });
    await app.call("POST", "/api/session/rename", { session_id: sid, title: "After" });
    await appendMessages(app.ctx.db, app.ctx.clock, sid, [
      { role: "user", content: "LATER_QUESTION" },
      { role: "assistant", content: "LATER_ANSWER" },
    ]);
    const { html } = await getPage(app, body.share.url);
    ok(html.includes("Before") && !html.includes("After"), "title as it was");
    ok(!html.includes("LATER_QUESTION") && !html.includes("LATER_ANSWER"), "no later turns");
    // Deleting the session deletes its links.
    await app.call("POST", "/api/session/delete", { session_id: sid });
    strictEqual((await getPage(app, body.share.url)).res.status, 404);
  } finally {
    await app.close();
  }
});

Deno.test("with auth on, a share link opens without login and nothing else does", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const sid = await seedSession(app);
    const created = await share(app, { session_id: sid }, { cookie });
    strictEqual(created.status, 200);
    const url = created.body.share.url;

    const anon = await getPage(app, url);
    strictEqual(anon.res.status, 200, "anonymous reader sees the share");
    ok(anon.html.includes("Please look at the repo"));
    ok(!anon.html.includes("hermes-csrf-token"), "no console token on a public page");

    strictEqual((await app.request("GET", "/")).status, 302, "/ still asks to log in");
    strictEqual((await app.request("GET", `/session/${sid}`)).status, 302);
    strictEqual((await app.request("GET", `${url}/x`)).status, 302, "nothing below a share");
    strictEqual((await app.request("GET", "/share")).status, 302);
    strictEqual((await app.request("GET", "/api/share/list")).status, 401);
    strictEqual((await share(app, { session_id: sid })).status, 401);
    strictEqual(
      (await app.request("POST", "/api/share/revoke", { token: created.body.share.token }))
        .status,
      401,
    );
    strictEqual((await app.request("GET", `/api/session?session_id=${sid}`)).status, 401);
    strictEqual((await getPage(app, url)).res.status, 200, "the link was not revoked");
    // A guess by the same anonymous reader is the plain 404 page, not a login redirect.
    const guess = await getPage(app, `/share/${newShareToken()}`);
    strictEqual(guess.res.status, 404);
    ok(guess.html.includes("This link is not available"));
  } finally {
    await app.close();
  }
});

Deno.test("a share page is noindex, sends no Referer and runs no script", async () => {
  const app = await createTestApp();
  try {
    const sid = await seedSession(app);
    const { res, html } = await getPage(
      app,
      (await share(app, { session_id: sid })).body.share.url,
    );
    ok(html.includes('<meta name="robots" content="noindex, nofollow"/>'), html.slice(0, 400));
    strictEqual(res.headers.get("x-robots-tag"), "noindex, nofollow");
    strictEqual(res.headers.get("referrer-policy"), "no-referrer");
    strictEqual(res.headers.get("cache-control"), "no-store");
    const csp = res.headers.get("content-security-policy") ?? "";
    match(csp, /script-src 'none'/);
    match(csp, /default-src 'none'/);
    ok(!/<script/i.test(html), "no scripts at all");
    ok(!html.includes("data-island"), "no islands");
    // Every other page keeps the console's policy.
    strictEqual((await app.request("GET", "/login")).headers.get("referrer-policy"), "same-origin");
  } finally {
    await app.close();
  }
});

Deno.test("hostile markdown in a shared transcript stays inert", async () => {
  const app = await createTestApp();
  try {
    const hostile = [
      "<script>alert('x')</script>",
      '<img src=x onerror="alert(1)">',
      "[click](javascript:alert(1))",
      "![beacon](https://evil.example/pixel.png?leak=1)",
      "![local](../../etc/passwd)",
      '<iframe src="https://evil.example"></iframe>',
      "<style>body{display:none}</style>",
    ].join("\n\n");
    const sid = await seedSession(app, "<script>alert('title')</script>", [
      { role: "user", content: "<b onmouseover=alert(1)>user</b>" },
      { role: "assistant", content: hostile },
    ]);
    const { html } = await getPage(
      app,
      (await share(app, { session_id: sid, include_tools: true })).body.share.url,
    );
    ok(!/<script/i.test(html), "no script element");
    ok(!/<iframe/i.test(html), "no iframe");
    ok(!/<style/i.test(html), "no style element");
    ok(!/<img[^>]*onerror/i.test(html), "no event handler attributes");
    ok(!/<b onmouseover/i.test(html));
    ok(!/href="javascript:/i.test(html), "no javascript: links");
    ok(!/<img[^>]*evil\.example/i.test(html), "remote images do not load");
    ok(!/<img[^>]*passwd/i.test(html), "workspace-relative images are dropped");
    ok(html.includes("&lt;script>alert(&#39;x&#39;)&lt;/script>") || html.includes("&lt;script"));
  } finally {
    await app.close();
  }
});
