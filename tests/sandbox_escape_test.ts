// Issue 12 attacks on the terminal sandbox, driven through the real engine: the fake provider
// scripts `terminal` calls, every approval is granted (the sandbox must hold even then), and
// the results the model got back are checked. Finding 2: no capabilities, no remount, no
// namespace games, no server environ even as root. 3b: network on still cannot reach the
// console's own port. 5: a workspace holding the state dir and config.yaml cannot read or
// patch them.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { shellTurn } from "./fixtures/shell_turn.ts";
import { createTestApp } from "./helpers.ts";
import { SANDBOX_UID, sandboxStatus } from "../lib/sandbox/command_runner.ts";
import { logSandboxStatus } from "../main.ts";
import { needs } from "./fixtures/skip.ts";

const status = await sandboxStatus();
const sandboxMissing = status.bubblewrap ? null : `no bubblewrap sandbox: ${status.message}`;

Deno.test(needs(sandboxMissing, {
  name: "a scripted model with every command approved cannot escape the sandbox as root",
  async fn() {
    const h = await startHarness({ tools: {} });
    try {
      const [caps, remount, umountProc, umountTmp, nsenter, unshare, environ, written] =
        await shellTurn(h, [
          "grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status; id -u; grep -E '^Seccomp:' /proc/self/status",
          "mount -o remount,rw,bind / 2>&1 && echo ESCAPED",
          "umount -l /proc 2>&1 && echo ESCAPED",
          "umount -l /tmp 2>&1 && echo ESCAPED",
          "nsenter --net=/proc/1/ns/net true 2>&1 && echo ESCAPED",
          "unshare -r true 2>&1 && echo ESCAPED",
          `cat /proc/${Deno.pid}/environ 2>&1 | tr '\\0' '\\n' | head -5; echo END`,
          "touch /usr/hermes-escape 2>&1 || echo READ-ONLY",
        ]);
      match(caps, /CapEff:\s+0000000000000000/);
      match(caps, /CapPrm:\s+0000000000000000/);
      match(caps, /CapBnd:\s+0000000000000000/);
      match(caps, new RegExp(`^${SANDBOX_UID}$`, "m"), "runs as nobody");
      match(caps, /Seccomp:\s+2/, "a seccomp filter is installed");
      for (
        const [name, out] of Object.entries({ remount, umountProc, umountTmp, nsenter, unshare })
      ) {
        ok(!out.includes("ESCAPED"), `${name}: ${out}`);
        match(out, /exit code [1-9]/, name);
      }
      match(unshare, /Operation not permitted/);
      match(nsenter, /Operation not permitted/);
      // The server's process is not even visible from the sandbox's /proc.
      match(environ, /No such file or directory\nEND/);
      ok(!environ.includes("PATH="), environ);
      match(written, /READ-ONLY/);
      strictEqual(await Deno.stat("/usr/hermes-escape").catch(() => null), null);
    } finally {
      await h.close();
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "home as workspace: the shell can neither read nor patch config.yaml, keys or the database",
  async fn() {
    const h = await startHarness({ tools: {} });
    try {
      // The harness root holds config.yaml (with the provider key), the state dir and a .env.
      await Deno.writeTextFile(join(h.root, ".env"), "OPENAI_API_KEY=sk-dotenv-secret\n");
      const configBefore = await Deno.readTextFile(join(h.root, "config.yaml"));
      ok(configBefore.includes("test-openai-key"));
      h.sessionId = await h.newSession({ workspace: h.root });
      const [read, patch, after] = await shellTurn(h, [
        "cat config.yaml .env; ls -A state | wc -l; cat state/hermes.db 2>/dev/null | wc -c; " +
        "env | grep -c '^HERMES_'",
        "echo 'model: {provider: evil}' >> config.yaml; echo pwned > state/hermes.db; " +
        "rm -rf state/* 2>&1; printf 'x' > .env; ls workspace && echo LISTED",
        "echo still-here > workspace/proof.txt && echo WROTE",
      ]);
      ok(!read.includes("test-openai-key") && !read.includes("sk-dotenv-secret"), read);
      // Nothing of the state dir, not a byte of the database, no HERMES_* variable (the
      // PostgreSQL URL and its password among them) reaches the shell.
      match(read, /^0\n0\n0\n/m);
      match(patch, /LISTED/, "the rest of the workspace stays usable");
      match(after, /WROTE/);
      strictEqual(await Deno.readTextFile(join(h.workspace, "proof.txt")), "still-here\n");
      strictEqual(await Deno.readTextFile(join(h.root, "config.yaml")), configBefore);
      strictEqual(
        await Deno.readTextFile(join(h.root, ".env")),
        "OPENAI_API_KEY=sk-dotenv-secret\n",
      );
      if (h.app.ctx.db.backend === "sqlite") {
        const db = await Deno.readFile(join(h.stateDir, "hermes.db"));
        strictEqual(new TextDecoder().decode(db.subarray(0, 15)), "SQLite format 3");
      }
      // And the console still works on its database.
      strictEqual((await h.call("GET", "/api/sessions")).status, 200);
    } finally {
      await h.close();
    }
  },
}));

function hostAddress(): string | null {
  const a = Deno.networkInterfaces().find((i) =>
    i.family === "IPv4" && !i.address.startsWith("127.")
  );
  return a?.address ?? null;
}

const connect = (host: string, port: number) =>
  `(exec 3<>/dev/tcp/${host}/${port}) 2>/dev/null && echo CONNECTED || echo REFUSED`;

Deno.test(needs(
  sandboxMissing ??
    (status.network_isolation ? null : "no private network (slirp4netns or unshare missing)"),
  {
    name: "with the network switch on, the shell still cannot reach the console's own port",
    async fn() {
      const h = await startHarness({ tools: {} });
      // A server of the test on every address: reachable through the host's external address
      // (outbound traffic works), never through loopback.
      const listener = Deno.listen({ hostname: "0.0.0.0", port: 0 });
      const port = (listener.addr as Deno.NetAddr).port;
      const accepting = (async () => {
        for await (const conn of listener) conn.close();
      })();
      try {
        const on = await h.call("POST", "/api/session/network", {
          session_id: h.sessionId,
          enabled: true,
        });
        deepStrictEqual(on.body, { ok: true, allow_network: true });
        const consolePort = Number(new URL(h.url).port);
        const ext = hostAddress();
        const [loop, curl, gateway, testLoop, outbound] = await shellTurn(h, [
          connect("127.0.0.1", consolePort),
          `curl -s -m 5 http://127.0.0.1:${consolePort}/api/sessions; echo "curl=$?"`,
          connect("10.0.2.2", consolePort),
          connect("127.0.0.1", port),
          ext ? connect(ext, port) : "echo CONNECTED",
        ]);
        match(loop, /^REFUSED/);
        match(curl, /curl=7/);
        match(gateway, /^REFUSED/, "slirp4netns runs with --disable-host-loopback");
        match(testLoop, /^REFUSED/);
        match(outbound, /^CONNECTED/, "the network itself works");
      } finally {
        listener.close();
        await accepting.catch(() => {});
        await h.close();
      }
    },
  },
));

Deno.test(needs(sandboxMissing, {
  name: "without slirp4netns the network switch keeps sandboxed commands offline and says so",
  async fn() {
    const h = await startHarness({ tools: { slirpPath: null } });
    try {
      await h.call("POST", "/api/session/network", { session_id: h.sessionId, enabled: true });
      const [out] = await shellTurn(h, [connect("127.0.0.1", Number(new URL(h.url).port))]);
      match(out, /slirp4netns is not installed\): the command ran offline\]\nREFUSED/);
      const s = await h.app.ctx.tools.commands.status();
      strictEqual(s.network_isolation, false);
      match(s.message, /network switch needs slirp4netns/);
    } finally {
      await h.close();
    }
  },
}));

Deno.test(needs(Deno.uid() === 0 ? null : "the console is not running as root", {
  name: "a console running as root without a sandbox says so in the log and the status",
  async fn() {
    const app = await createTestApp({ tools: { bwrapPath: null } });
    try {
      await logSandboxStatus(app.ctx);
      const s = await app.ctx.tools.commands.status();
      match(s.warning ?? "", /runs as root .*the agent's commands run as root on the host/);
      ok(app.logs.some((l) => l.includes("WARN") && l.includes("runs as root")), app.logs.join());
      const page = await (await app.request("GET", "/")).text();
      match(page, /data-sandbox="off"/);
      match(
        page,
        /data-sandbox="root" title="The console runs as root[^"]*">The console runs as root: shell commands run as root on the host</,
      );
    } finally {
      await app.close();
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "sandboxStatus() reports the privilege drop, the filter and the network isolation",
  fn() {
    strictEqual(status.unprivileged, true);
    strictEqual(status.seccomp, true);
    strictEqual(status.warning, null);
    match(status.message, /unprivileged user with no capabilities and a syscall filter/);
  },
}));
