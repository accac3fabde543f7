// The embedded terminal (lib/terminal, routes/api/terminal/*): a real PTY shell in the agent's
// sandbox over a WebSocket or HTTP, with scrollback on reattach, a grace period, limits, and the
// same origin/proof/auth checks as every write.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, serveTestApp, type TestApp } from "./helpers.ts";
import { consoleToken } from "../lib/security/request_proof.ts";
import { sandboxStatus } from "../lib/sandbox/bwrap_sandbox.ts";
import { needs } from "./fixtures/skip.ts";

const status = await sandboxStatus();
const sandboxMissing = status.bubblewrap ? null : `no bubblewrap sandbox: ${status.message}`;
const dec = new TextDecoder();

async function newSession(app: TestApp): Promise<string> {
  const r = await app.call<{ session: { session_id: string } }>("POST", "/api/session/new", {});
  strictEqual(r.status, 200);
  return r.body.session.session_id;
}

async function startTerminal(app: TestApp, sessionId: string, size = { rows: 24, cols: 80 }) {
  const r = await app.call<{ terminal: { terminal_id: string } }>(
    "POST",
    "/api/terminal/start",
    { session_id: sessionId, ...size },
  );
  strictEqual(r.status, 200, JSON.stringify(r.body));
  return r.body.terminal.terminal_id;
}

/** A WebSocket client that accumulates the screen bytes and waits for text on it. */
class Viewer {
  screen = "";
  events: Array<{ type: string; code?: number }> = [];
  closed: Promise<CloseEvent>;
  #waiters: Array<() => void> = [];
  constructor(readonly ws: WebSocket) {
    ws.binaryType = "arraybuffer";
    ws.onmessage = (e) => {
      if (typeof e.data === "string") this.events.push(JSON.parse(e.data));
      else this.screen += dec.decode(new Uint8Array(e.data), { stream: true });
      for (const w of this.#waiters) w();
    };
    this.closed = new Promise((r) => ws.addEventListener("close", (e) => r(e)));
    this.closed.then(() => this.#waiters.forEach((w) => w()));
  }
  static async open(url: string, headers?: Record<string, string>): Promise<Viewer> {
    const ws = new WebSocket(url, { headers } as unknown as string[]);
    const v = new Viewer(ws);
    await new Promise<void>((res, rej) => {
      ws.onopen = () => res();
      ws.onerror = () => rej(new Error("WebSocket failed"));
    });
    await v.until(() => v.events.some((e) => e.type === "attached"), "attached");
    return v;
  }
  until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
    return new Promise((res, rej) => {
      const check = () => {
        if (cond()) {
          clearTimeout(t);
          this.#waiters = this.#waiters.filter((w) => w !== check);
          res();
        }
      };
      const t = setTimeout(
        () => rej(new Error(`timed out waiting for ${what}: ${this.screen}`)),
        ms,
      );
      this.#waiters.push(check);
      check();
    });
  }
  type(text: string) {
    this.ws.send(JSON.stringify({ type: "input", data: text }));
  }
  /** Run a command and wait for the marker it prints (the echo of the line does not match). */
  async run(cmd: string, marker: string): Promise<string> {
    const start = this.screen.length;
    this.type(`${cmd}; echo "${marker.slice(0, 1)}""${marker.slice(1)}"\r`);
    await this.until(() => this.screen.slice(start).includes(marker), marker);
    return this.screen.slice(start);
  }
}

async function withServed(
  fn: (app: TestApp, url: string, token: string) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
) {
  const app = await createTestApp(opts);
  const server = serveTestApp(app);
  try {
    await fn(app, server.url, await consoleToken(app.ctx.security));
  } finally {
    await app.close();
    await server.shutdown();
  }
}

const wsUrl = (base: string, sid: string, tid: string, token?: string) =>
  `${base.replace("http", "ws")}/api/terminal/ws?session_id=${sid}&terminal_id=${tid}` +
  (token === undefined ? "" : `&token=${token}`);

Deno.test(needs(sandboxMissing, {
  name:
    "terminal: git, node, python3, deno, npx and pip run in the workspace; /run and HOME are its own",
  fn: () =>
    withServed(async (app, url, token) => {
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid, { rows: 24, cols: 200 });
      const v = await Viewer.open(wsUrl(url, sid, tid, token));
      const out = await v.run(
        "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x " +
          "&& echo GIT-$(git log --oneline | wc -l); " +
          "node -e 'console.log(\"NODE-\" + 6*7)'; python3 -c 'print(\"PY-\" + str(6*7))'; " +
          "deno eval 'console.log(\"DENO-\" + 6*7)'; echo NPX-$(npx --version); " +
          "pip --version | cut -c1-4; echo RUN-$(ls -A /run | wc -l)-HOME-$HOME; " +
          `ls ${Deno.env.get("HOME")} 2>&1 | head -1`,
        "TOOLSDONE",
      );
      for (const want of ["GIT-1", "NODE-42", "PY-42", "DENO-42", "pip ", "RUN-0-HOME-/tmp/home"]) {
        ok(out.includes(want), `${want}: ${out}`);
      }
      ok(/NPX-\d+\.\d+/.test(out), out);
      ok(out.includes("No such file or directory"), `the owner's home is not there: ${out}`);
      await app.call("POST", "/api/terminal/close", { session_id: sid, terminal_id: tid });
      await v.closed;
    }),
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: start, input, output, resize and close over the WebSocket, as uid 65534",
  fn: () =>
    withServed(async (app, url, token) => {
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid, { rows: 24, cols: 80 });
      const v = await Viewer.open(wsUrl(url, sid, tid, token));
      let out = await v.run("echo $((40+2)); id -u; pwd", "DONE1");
      ok(out.includes("42"), out);
      ok(out.includes("65534"), out);
      ok(out.includes(app.workspace), out);
      out = await v.run("stty size; tty", "DONE2");
      ok(out.includes("24 80"), out);
      ok(out.includes("/dev/pts/"), out); // a real PTY
      v.ws.send(JSON.stringify({ type: "resize", rows: 33, cols: 101 }));
      await v.until(() => true, "");
      // The resize lands asynchronously (SIGWINCH): ask until the shell sees it.
      let seen = "";
      for (let i = 0; i < 50 && !seen.includes("33 101"); i++) {
        seen = await v.run("stty size", `SZ${i}X`);
      }
      ok(seen.includes("33 101"), seen);
      const list = await app.call<{ terminals: Array<{ rows: number; viewers: number }> }>(
        "GET",
        `/api/terminal/list?session_id=${sid}`,
      );
      strictEqual(list.body.terminals.length, 1);
      strictEqual(list.body.terminals[0].rows, 33);
      strictEqual(list.body.terminals[0].viewers, 1);
      const closed = await app.call("POST", "/api/terminal/close", {
        session_id: sid,
        terminal_id: tid,
      });
      strictEqual(closed.status, 200);
      await v.closed;
      ok(v.events.some((e) => e.type === "exit"), JSON.stringify(v.events));
      strictEqual(app.ctx.terminals.list(sid).length, 0);
    }),
}));

Deno.test(needs(sandboxMissing, {
  name:
    "terminal: reopening reattaches with the scrollback; nobody watching past the grace kills it",
  fn: () =>
    withServed(async (app, url, token) => {
      app.ctx.terminals.configure({ graceMs: 1500 });
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid);
      const first = await Viewer.open(wsUrl(url, sid, tid, token));
      await first.run("echo remember-$((6*7))", "MARK1");
      first.ws.close();
      await first.closed;
      const second = await Viewer.open(wsUrl(url, sid, tid, token));
      await second.until(() => second.screen.includes("remember-42"), "scrollback");
      await second.run("echo still-here", "MARK2"); // the same shell, not a new one
      second.ws.close();
      await second.closed;
      // Unwatched: gone after the grace period (and its WebSocket is refused after that).
      for (let i = 0; i < 100 && app.ctx.terminals.list(sid).length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      strictEqual(app.ctx.terminals.list(sid).length, 0);
      const res = await fetch(wsUrl(url, sid, tid, token).replace("ws", "http"), {
        headers: { upgrade: "websocket", connection: "upgrade" },
      });
      strictEqual(res.status, 404);
      await res.body?.cancel();
    }),
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: the shell cannot read config.yaml or the state dir, nor reach the console",
  fn: async () => {
    // Home as workspace, the hard case: config.yaml and the state dir INSIDE the workspace (and
    // outside /tmp, which the sandbox replaces anyway), so only the masks can hide them.
    const home = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-term-home-" });
    const configPath = join(home, "config.yaml");
    const stateDir = join(home, ".state");
    await Deno.writeTextFile(configPath, "providers:\n  x:\n    api_key: sekrit-key\n");
    try {
      await withServed(async (app, url, token) => {
        const sid = await newSession(app);
        const port = new URL(url).port;
        const probe = (v: Viewer, n: string) =>
          v.run(
            `cat ${configPath} ${join(stateDir, "csrf_token")}; ls -a ${home}; ` +
              `(echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo PORT-OPEN || echo PORT-SHUT; ` +
              `(echo > /dev/tcp/10.0.2.2/${port}) 2>/dev/null && echo HOST-OPEN || echo HOST-SHUT`,
            n,
          );
        const v1 = await Viewer.open(wsUrl(url, sid, await startTerminal(app, sid), token));
        let out = await probe(v1, "END1");
        ok(out.includes("config.yaml"), out); // it is there, masked, not missing
        ok(!out.includes("sekrit-key"), out);
        ok(!out.includes(token), out);
        ok(out.includes("PORT-SHUT") && out.includes("HOST-SHUT"), out);
        // With the session's network switch on: a network, still not the host's loopback.
        const net = await app.call("POST", "/api/session/network", {
          session_id: sid,
          enabled: true,
        });
        strictEqual(net.status, 200);
        const v2 = await Viewer.open(wsUrl(url, sid, await startTerminal(app, sid), token));
        out = await probe(v2, "END2");
        ok(!out.includes("sekrit-key") && !out.includes(token), out);
        ok(out.includes("PORT-SHUT") && out.includes("HOST-SHUT"), out);
        out = await v2.run("env | cut -d= -f1 | sort | tr '\\n' ' '", "END3");
        // The explicit environment and what bash itself adds; nothing of the server's.
        ok(/\rCOLORTERM HOME LANG PATH PWD SHELL SHLVL TERM _ END3/.test(out), out);
      }, {
        env: {
          HERMES_CONFIG_PATH: configPath,
          HERMES_WEBUI_STATE_DIR: stateDir,
          HERMES_WEBUI_DEFAULT_WORKSPACE: home,
        },
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: the WebSocket refuses another site, a missing or wrong token, and no login",
  fn: async () => {
    await withServed(async (app, url, token) => {
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid);
      const upgrade = { upgrade: "websocket", connection: "upgrade" };
      const get = async (u: string, headers: Record<string, string> = {}) => {
        const r = await fetch(u.replace("ws", "http"), { headers: { ...upgrade, ...headers } });
        await r.body?.cancel();
        return r.status;
      };
      strictEqual(await get(wsUrl(url, sid, tid, token), { origin: "https://evil.example" }), 403);
      strictEqual(await get(wsUrl(url, sid, tid, token), { "sec-fetch-site": "cross-site" }), 403);
      strictEqual(await get(wsUrl(url, sid, tid), { origin: url }), 403);
      strictEqual(await get(wsUrl(url, sid, tid, "0".repeat(64)), { origin: url }), 403);
      // Another session cannot reach this terminal.
      const other = await newSession(app);
      strictEqual(await get(wsUrl(url, other, tid, token), { origin: url }), 404);
      // The page's own origin with its token upgrades.
      const v = await Viewer.open(wsUrl(url, sid, tid, token), { origin: url });
      v.ws.close();
      await v.closed;
      // The HTTP routes want the proof too.
      const noProof = await app.request(
        "POST",
        "/api/terminal/start",
        { session_id: sid },
        {},
        { proof: false },
      );
      strictEqual(noProof.status, 403);
      await noProof.body?.cancel();
    });
    const password = "correct horse battery staple";
    await withServed(async (app, url) => {
      const r = await fetch(`${url}/api/terminal/ws?session_id=x&token=y`, {
        headers: { upgrade: "websocket", connection: "upgrade", origin: url },
      });
      strictEqual(r.status, 401);
      await r.body?.cancel();
      const start = await app.request("POST", "/api/terminal/start", { session_id: "x" });
      strictEqual(start.status, 401);
      await start.body?.cancel();
      // Logged in: the page's login-session token opens the socket; the cookie alone does not
      // (a browser page must echo the token, like every write).
      const login = await app.request("POST", "/api/auth/login", { password });
      strictEqual(login.status, 200);
      await login.body?.cancel();
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
      const status = await app.call("GET", "/api/auth/status", undefined, { cookie });
      const csrf = String(status.body.csrf_token);
      const headers = { cookie, "x-hermes-csrf-token": csrf, "content-type": "application/json" };
      const session = await fetch(`${url}/api/session/new`, {
        method: "POST",
        headers,
        body: "{}",
      }).then((x) => x.json());
      const sid = session.session.session_id;
      const started = await fetch(`${url}/api/terminal/start`, {
        method: "POST",
        headers,
        body: JSON.stringify({ session_id: sid }),
      }).then((x) => x.json());
      const tid = started.terminal.terminal_id;
      const bare = await fetch(wsUrl(url, sid, tid).replace("ws", "http"), {
        headers: { upgrade: "websocket", connection: "upgrade", origin: url, cookie },
      });
      strictEqual(bare.status, 403);
      await bare.body?.cancel();
      const v = await Viewer.open(wsUrl(url, sid, tid, csrf), { origin: url, cookie });
      ok((await v.run("id -u", "AUTHED")).includes("65534"));
      v.ws.close();
      await v.closed;
    }, { env: { HERMES_WEBUI_PASSWORD: password } });
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: HTTP fallback — start, input, SSE output, resize, close",
  fn: () =>
    withServed(async (app, url, token) => {
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid);
      const res = await fetch(`${url}/api/terminal/output?session_id=${sid}&terminal_id=${tid}`);
      strictEqual(res.status, 200);
      strictEqual(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
      const reader = res.body!.getReader();
      let text = "";
      const until = async (s: string) => {
        while (!text.includes(s)) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`stream ended before ${s}: ${text}`);
          text += dec.decode(value, { stream: true });
        }
      };
      const post = (path: string, body: Record<string, unknown>) =>
        fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hermes-csrf-token": token },
          body: JSON.stringify({ session_id: sid, ...body }),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      strictEqual(
        (await post("/api/terminal/input", { data: "echo http-$((2*21))\r" })).status,
        200,
      );
      await until("http-42");
      const rs = await post("/api/terminal/resize", { terminal_id: tid, rows: 40, cols: 120 });
      strictEqual(rs.status, 200);
      strictEqual(rs.body.terminal.cols, 120);
      strictEqual((await post("/api/terminal/close", { terminal_id: tid })).status, 200);
      await until("event: exit");
      await reader.cancel();
      strictEqual((await post("/api/terminal/input", { data: "x" })).status, 404);
      // Bad input is a clear 400.
      strictEqual((await post("/api/terminal/resize", { rows: "big" })).status, 400);
    }),
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: limits per session, and deleting the session kills its shells",
  fn: () =>
    withServed(async (app) => {
      app.ctx.terminals.configure({ maxPerSession: 2 });
      const sid = await newSession(app);
      await startTerminal(app, sid);
      await startTerminal(app, sid);
      const third = await app.call("POST", "/api/terminal/start", { session_id: sid });
      strictEqual(third.status, 503);
      ok(String(third.body.error).includes("at most 2"), JSON.stringify(third.body));
      const big = await app.call("POST", "/api/terminal/input", {
        session_id: sid,
        data: "x".repeat(70_000),
      });
      strictEqual(big.status, 400);
      strictEqual(
        (await app.call("POST", "/api/session/delete", { session_id: sid })).status,
        200,
      );
      strictEqual(app.ctx.terminals.list(sid).length, 0);
    }),
}));

/** Processes (ours) whose working directory is `dir`: the sandboxed shells of a workspace. */
async function processesIn(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      if (await Deno.readLink(`/proc/${e.name}/cwd`) === dir) n++;
    } catch { /* gone, or not ours */ }
  }
  return n;
}

/** Poll `probe` until `done` holds (true) or a few seconds pass (false). */
async function settles(probe: () => Promise<number>, done: (n: number) => boolean) {
  for (let i = 0; i < 50; i++) {
    if (done(await probe())) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

Deno.test(needs(sandboxMissing, {
  name: "terminal: closing the app kills every shell, and no new one starts",
  fn: async () => {
    const app = await createTestApp();
    let closed = false;
    try {
      const sid = await newSession(app);
      await startTerminal(app, sid);
      await startTerminal(app, sid);
      const workspace = await Deno.realPath(app.workspace);
      ok(await settles(() => processesIn(workspace), (n) => n >= 2), "shells in the workspace");
      // Killed right after it started (bwrap still setting up): nothing may survive either.
      for (let i = 0; i < 3; i++) {
        const tid = await startTerminal(app, sid);
        await app.call("POST", "/api/terminal/close", { session_id: sid, terminal_id: tid });
      }
      await app.ctx.terminals.shutdown();
      ok(await settles(() => processesIn(workspace), (n) => n === 0), "no process survives");
      const after = await app.call("POST", "/api/terminal/start", { session_id: sid });
      strictEqual(after.status, 503);
      await app.close();
      closed = true;
    } finally {
      if (!closed) await app.close();
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: hostile ids and sizes are refused or clamped, never a path",
  fn: () =>
    withServed(async (app) => {
      const sid = await newSession(app);
      const tid = await startTerminal(app, sid, { rows: 99999, cols: -5 });
      const info = app.ctx.terminals.info(sid, tid);
      strictEqual(info.rows, 200);
      strictEqual(info.cols, 10);
      for (const bad of ["../" + tid, tid + "\0", "x".repeat(64), "", "%2e%2e"]) {
        const r = await app.call("POST", "/api/terminal/input", {
          session_id: sid,
          terminal_id: bad,
          data: "x",
        });
        ok(r.status === 404 || r.status === 400, `${JSON.stringify(bad)} → ${r.status}`);
      }
      for (const bad of ["../../etc", "a\0b", "x".repeat(200)]) {
        const r = await app.call("POST", "/api/terminal/start", { session_id: bad });
        ok(r.status === 404 || r.status === 400, `${JSON.stringify(bad)} → ${r.status}`);
      }
      const list = await app.call("GET", "/api/terminal/list?session_id=%00");
      strictEqual(list.status, 200);
      strictEqual((list.body.terminals as unknown[]).length, 0);
    }),
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal: a flood of output is read no faster than the rate limit",
  fn: () =>
    withServed(async (app, url, token) => {
      const rate = 64 * 1024;
      app.ctx.terminals.configure({ rateBytesPerSec: rate });
      const sid = await newSession(app);
      const v = await Viewer.open(wsUrl(url, sid, await startTerminal(app, sid), token));
      const t0 = performance.now();
      const before = v.screen.length;
      v.type("cat /dev/zero | tr '\\0' x\r");
      await v.until(() => v.screen.length - before > 3 * rate, "a flood", 30_000);
      const seconds = (performance.now() - t0) / 1000;
      // The bucket starts full (one second's worth), then refills at `rate`.
      ok(v.screen.length - before <= rate * (seconds + 1) + 64 * 1024, `${seconds}s`);
      v.type("\x03"); // Ctrl-C reaches the program through the PTY
      await v.run("echo after-flood", "FLOODEND");
    }),
}));

Deno.test("terminal: without bubblewrap it refuses to start rather than run on the host", async () => {
  const app = await createTestApp({ tools: { bwrapPath: null } });
  try {
    const sid = await newSession(app);
    const r = await app.call("POST", "/api/terminal/start", { session_id: sid });
    strictEqual(r.status, 409);
    ok(String(r.body.error).includes("bubblewrap"), JSON.stringify(r.body));
    strictEqual(app.ctx.terminals.list(sid).length, 0);
  } finally {
    await app.close();
  }
});
