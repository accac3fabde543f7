// Finding 4 (attack review, issue 12): a neighbour swaps a workspace directory with a symlink to
// a folder outside while the model's file tools run through the real engine. Whatever the timing,
// no tool may return, list, patch or create anything outside the workspace.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import type { ScriptedToolCall } from "./fixtures/fake_provider.ts";

const ROUNDS = 150;
const PER_RESPONSE = 75;

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) out[e.name] = await Deno.readTextFile(join(dir, e.name));
  return out;
}

/**
 * Start swapping `workspace/d` with `workspace/d_alt` (until `stop` exists) and return once
 * the swaps have begun: the racer's start-up takes longer than a burst of requests.
 */
async function startRacer(workspace: string, stop: string): Promise<Deno.ChildProcess> {
  const racer = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-ffi",
      "--allow-read",
      new URL("./fixtures/swap_racer.ts", import.meta.url).pathname,
      join(workspace, "d"),
      join(workspace, "d_alt"),
      "120000",
      "100000000",
      stop,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  for (let i = 0; i < 1000; i++) {
    if ((await Deno.lstat(join(workspace, "d"))).isSymlink) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return racer;
}

Deno.test("file tools never escape the workspace while a directory and an outside symlink are swapped", async () => {
  const h = await startHarness();
  const outside = join(h.root, "outside");
  const stop = join(h.root, "stop-racer");
  let racer: Deno.ChildProcess | null = null;
  try {
    await Deno.mkdir(join(h.workspace, "d"));
    await Deno.writeTextFile(join(h.workspace, "d", "config.yaml"), "value: 1\ninside\n");
    await Deno.writeTextFile(join(h.workspace, "d", "inside-only.txt"), "inside\n");
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(outside, "config.yaml"), "value: 1\nOUTSIDE-SECRET\n");
    await Deno.writeTextFile(join(outside, "outside-only.txt"), "OUTSIDE-SECRET\n");
    await Deno.symlink(outside, join(h.workspace, "d_alt"));
    const before = await snapshot(outside);

    const calls: ScriptedToolCall[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      calls.push(
        { name: "read_file", args: { path: "d/config.yaml" }, argChunks: 1 },
        { name: "write_file", args: { path: `d/w_${i}.txt`, content: "x\n" }, argChunks: 1 },
        {
          name: "patch",
          args: { path: "d/config.yaml", old_string: "value: 1", new_string: "value: 1+" },
          argChunks: 1,
        },
        { name: "list_directory", args: { path: "d" }, argChunks: 1 },
        { name: "search_files", args: { pattern: "SECRET|value", path: "d" }, argChunks: 1 },
      );
    }
    for (let i = 0; i < calls.length; i += PER_RESPONSE) {
      h.fake.enqueue({ toolCalls: calls.slice(i, i + PER_RESPONSE) });
    }
    h.fake.enqueue({ text: "done" });

    racer = await startRacer(h.workspace, stop);
    const { stream_id } = await h.start("touch d many times");
    const res = await h.stream(stream_id);
    await Deno.writeTextFile(stop, "");
    const swaps = Number(new TextDecoder().decode((await racer.output()).stdout).trim());
    racer = null;
    ok(swaps > 100, `the racer swapped only ${swaps} times`);

    const completes = res.events.filter((e) => e.event === "tool_complete");
    strictEqual(completes.length, calls.length);
    // What the model saw: every tool result in the last request, by tool.
    const last = h.fake.chatRequests.at(-1)!.body as {
      messages: Array<{
        role: string;
        content?: unknown;
        tool_call_id?: string;
        tool_calls?: Array<{ id: string; function: { name: string } }>;
      }>;
    };
    const nameOf = new Map<string, string>();
    for (const m of last.messages) {
      for (const c of m.tool_calls ?? []) nameOf.set(c.id, c.function.name);
    }
    const leaks: Record<string, number> = {};
    for (const m of last.messages) {
      if (m.role !== "tool") continue;
      const text = JSON.stringify(m.content);
      if (text.includes("OUTSIDE-SECRET") || text.includes("outside-only")) {
        const name = nameOf.get(m.tool_call_id ?? "") ?? "?";
        leaks[name] = (leaks[name] ?? 0) + 1;
      }
    }
    const after = await snapshot(outside);
    const escapes = {
      leaked_results: leaks,
      files_created_outside: Object.keys(after).filter((n) => !(n in before)).length,
      outside_config_changed: after["config.yaml"] !== before["config.yaml"],
    };
    deepStrictEqual(
      escapes,
      { leaked_results: {}, files_created_outside: 0, outside_config_changed: false },
      `escapes during ${swaps} swaps`,
    );
    // The tools did work on the inside tree while the race went on (not just refuse all).
    const succeeded = new Set(
      completes.filter((e) => !(e.data as { is_error: boolean }).is_error)
        .map((e) => (e.data as { name: string }).name),
    );
    deepStrictEqual([...succeeded].sort(), [
      "list_directory",
      "patch",
      "read_file",
      "search_files",
      "write_file",
    ]);
  } finally {
    if (racer) {
      await Deno.writeTextFile(stop, "").catch(() => {});
      await racer.output().catch(() => {});
    }
    await h.close();
  }
});

Deno.test("the workspace panel never serves a file outside while a directory is swapped", async () => {
  const h = await startHarness();
  const outside = join(h.root, "outside");
  const stop = join(h.root, "stop-racer");
  let racer: Deno.ChildProcess | null = null;
  try {
    await Deno.mkdir(join(h.workspace, "d"));
    await Deno.writeTextFile(join(h.workspace, "d", "config.yaml"), "value: 1\ninside\n");
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(outside, "config.yaml"), "value: 1\nOUTSIDE-SECRET\n");
    await Deno.writeTextFile(join(outside, "outside-only.txt"), "x\n");
    await Deno.symlink(outside, join(h.workspace, "d_alt"));
    racer = await startRacer(h.workspace, stop);
    const leaks: Record<string, number> = {};
    let served = 0;
    for (let i = 0; i < 150; i++) {
      for (const route of ["/api/file", "/api/file/raw"]) {
        const r = await h.call("GET", `${route}?session_id=${h.sessionId}&path=d/config.yaml`);
        if (r.status === 200) served++;
        if (JSON.stringify(r.body).includes("OUTSIDE-SECRET")) {
          leaks[route] = (leaks[route] ?? 0) + 1;
        }
      }
      const list = await h.call("GET", `/api/list?session_id=${h.sessionId}&path=d`);
      if (list.status === 200) served++;
      if (JSON.stringify(list.body).includes("outside-only")) {
        leaks["/api/list"] = (leaks["/api/list"] ?? 0) + 1;
      }
    }
    await Deno.writeTextFile(stop, "");
    await racer.output();
    racer = null;
    deepStrictEqual(leaks, {}, "the panel served a file outside the workspace");
    ok(served > 0, "the panel never served the inside file");
  } finally {
    if (racer) {
      await Deno.writeTextFile(stop, "").catch(() => {});
      await racer.output().catch(() => {});
    }
    await h.close();
  }
});
