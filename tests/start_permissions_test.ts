// The console started with exactly `deno task start`'s permission flags (deno.json is the one
// source of truth; tests elsewhere run with -A) can run the agent's terminal in its sandbox:
// every program the sandbox spawns (bwrap, the seccomp wrapper's /bin/sh, slirp4netns for the
// network switch, unshare) is allowed. A missing --allow-run entry would make every terminal
// call fail in production while the -A test suite stays green.
import { startServer } from "./fixtures/start_server.ts";
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { readSse } from "./fixtures/sse_client.ts";
import { needs } from "./fixtures/skip.ts";

const hasBwrap = (() => {
  try {
    return new Deno.Command("bwrap", { args: ["--version"] }).outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test(needs(hasBwrap ? null : "bubblewrap (bwrap) is not installed", {
  name:
    "with start's permissions the terminal, file tools, rollback and the embedded terminal all work",
  async fn() {
    // Answers by what is asked (a title request or another side call may come in between):
    // a user turn gets the terminal call, its tool result gets "done".
    const fake = startFakeProvider({
      respond: (req) => {
        const msgs = req.body?.messages ?? [];
        const last = msgs.at(-1);
        if (last?.role === "tool") return { text: "done" };
        if (String(last?.content ?? "").startsWith("run it")) {
          return {
            toolCalls: [{ name: "terminal", args: { command: "echo sandbox-ok; id -u" } }],
          };
        }
        if (String(last?.content ?? "").startsWith("sleep it")) {
          return { toolCalls: [{ name: "terminal", args: { command: "sleep 31.7" } }] };
        }
        if (String(last?.content ?? "").startsWith("write it")) {
          return {
            toolCalls: [{
              name: "write_file",
              args: { path: "notes.txt", content: "from the agent\n" },
            }],
          };
        }
        return { text: "A title" };
      },
    });
    const root = await Deno.makeTempDir({ prefix: "hermes-perms-" });
    await Deno.mkdir(join(root, "workspace"));
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n  api_key: k\n` +
        "approvals:\n  mode: off\n",
    );
    const server = await startServer(root);
    const { base, token } = server;
    try {
      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method: "POST",
          headers: { "x-hermes-csrf-token": token, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return await res.json();
      };
      const { session } = await call("/api/session/new", {});
      for (const network of [false, true]) {
        await call("/api/session/network", { session_id: session.session_id, enabled: network });
        const started = await call("/api/chat/start", {
          session_id: session.session_id,
          message: `run it (network ${network})`,
        });
        const { events } = await readSse(base, started.stream_id);
        const done = events.find((e) => e.event === "tool_complete");
        const text = JSON.stringify(done?.data ?? {});
        ok(text.includes("sandbox-ok"), `network ${network}: ${text.slice(0, 400)}`);
        ok(!/Requires run access|NotCapable/.test(text), text.slice(0, 400));
      }

      // The file tools (FFI openat2 in the Worker) and checkpoints: write, then roll it back.
      await Deno.writeTextFile(join(root, "workspace", "notes.txt"), "mine\n");
      const w = await call("/api/chat/start", {
        session_id: session.session_id,
        message: "write it",
      });
      const written = await readSse(base, w.stream_id);
      const result = JSON.stringify(written.events.find((e) => e.event === "tool_complete")?.data);
      ok(!/is_error":true/.test(result), result.slice(0, 400));
      strictEqual(
        await Deno.readTextFile(join(root, "workspace", "notes.txt")),
        "from the agent\n",
      );
      const restored = await call("/api/rollback/restore", {
        session_id: session.session_id,
        turn_id: w.turn_id,
      });
      ok(restored.ok, JSON.stringify(restored));
      strictEqual(await Deno.readTextFile(join(root, "workspace", "notes.txt")), "mine\n");

      // Cancelling a run kills its command's whole sandbox (Deno.kill needs an unrestricted
      // --allow-run, so the group is signalled through an allowed program).
      const sl = await call("/api/chat/start", {
        session_id: session.session_id,
        message: "sleep it",
      });
      const running = async () =>
        (await new Deno.Command("pgrep", { args: ["-f", "sleep 31.7"], stdout: "piped" }).output())
          .success;
      for (let i = 0; i < 100 && !(await running()); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      ok(await running(), "the command started");
      const cancel = await fetch(`${base}/api/chat/cancel?stream_id=${sl.stream_id}`, {
        headers: { "x-hermes-csrf-token": token },
      });
      await cancel.body?.cancel();
      for (let i = 0; i < 100 && (await running()); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      ok(!(await running()), "cancel left the command running");

      // The embedded terminal starts its PTY in the sandbox and closes cleanly.
      const term = await call("/api/terminal/start", { session_id: session.session_id });
      ok(term.ok, JSON.stringify(term));
      const closed = await call("/api/terminal/close", {
        session_id: session.session_id,
        terminal_id: term.terminal.terminal_id,
      });
      ok(closed.ok, JSON.stringify(closed));
    } finally {
      await server.stop();
      await fake.close();
    }
  },
}));

Deno.test("with start's permissions /api/system/health reads the state dir's disk (statfs)", async () => {
  // The disk check needs sys access to "statfs": without it in the start task (as before) the
  // report said "Requires sys access" and answered 503 under `deno task start` alone.
  const root = await Deno.makeTempDir({ prefix: "hermes-perms-" });
  await Deno.mkdir(join(root, "workspace"));
  const server = await startServer(root);
  try {
    const res = await fetch(`${server.base}/api/system/health`);
    const body = await res.json();
    strictEqual(body.checks.disk.ok, true, JSON.stringify(body.checks.disk));
    ok(body.checks.disk.free_bytes > 0);
    strictEqual(res.status, 200, JSON.stringify(body.checks));
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
