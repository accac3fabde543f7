// Checkpoints and rollback (/api/rollback/{list,diff,restore}): the fake model's write_file, patch
// and terminal calls are snapshotted before/after in the state dir (never the user's git, and in a
// workspace that is no repo); one call is undone, a whole turn is rolled back, with a diff preview;
// hostile ids, traversal, symlinks and protected files are refused.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type Harness, startHarness } from "./fixtures/engine_harness.ts";
import { resetBaselines } from "../lib/checkpoints/tool_checkpoints.ts";
import { createSession } from "../lib/sessions/sessions.ts";

interface Listed {
  checkpoints: Array<{
    id: string;
    turn_id: string;
    tool_call_id: string;
    tool: string;
    restored_at: number | null;
    files: Array<{ path: string; status: string; restorable: boolean }>;
  }>;
}

async function turn(h: Harness, message: string): Promise<string> {
  const { stream_id, turn_id } = await h.start(message);
  const res = await h.stream(stream_id);
  strictEqual(res.events.at(-1)!.event, "stream_end");
  return turn_id;
}

Deno.test("rollback: undo one tool call and roll back a whole turn (no git repo)", async () => {
  resetBaselines();
  const h = await startHarness();
  try {
    const ws = h.workspace;
    await Deno.writeTextFile(join(ws, "keep.txt"), "original\n");
    await Deno.writeTextFile(join(ws, "edit.txt"), "alpha\nbeta\ngamma\n");
    h.fake.enqueue(
      {
        toolCalls: [
          { id: "call_new", name: "write_file", args: { path: "dir/new.txt", content: "new!\n" } },
          {
            id: "call_over",
            name: "write_file",
            args: { path: "keep.txt", content: "clobbered\n" },
          },
          {
            id: "call_patch",
            name: "patch",
            args: { path: "edit.txt", old_string: "beta", new_string: "BETA" },
          },
          { id: "call_read", name: "read_file", args: { path: "edit.txt" } },
        ],
      },
      { text: "done" },
    );
    const t1 = await turn(h, "change things");
    strictEqual(await Deno.readTextFile(join(ws, "keep.txt")), "clobbered\n");
    // Not a repo, and the checkpoints made none: the store lives in the state dir.
    strictEqual(await Deno.stat(join(ws, ".git")).catch(() => null), null);

    const list = await h.call<Listed>("GET", `/api/rollback/list?session_id=${h.sessionId}`);
    strictEqual(list.status, 200);
    deepStrictEqual(
      list.body.checkpoints.map((
        c,
      ) => [c.tool_call_id, c.tool, c.turn_id, c.files.map((f) => `${f.status} ${f.path}`)]),
      [
        ["call_new", "write_file", t1, ["added dir/new.txt"]],
        ["call_over", "write_file", t1, ["modified keep.txt"]],
        ["call_patch", "patch", t1, ["modified edit.txt"]],
      ],
    );

    // Preview, then undo only the patch.
    const d = await h.call(
      "GET",
      `/api/rollback/diff?session_id=${h.sessionId}&tool_call_id=call_patch`,
    );
    strictEqual(d.status, 200);
    ok(String(d.body.diff).includes("-BETA"), d.body.diff);
    ok(String(d.body.diff).includes("+beta"));
    deepStrictEqual(d.body.files_changed, [{
      file: "edit.txt",
      status: "restore",
      changed_since: false,
      binary: false,
    }]);
    const undo = await h.call("POST", "/api/rollback/restore", {
      session_id: h.sessionId,
      tool_call_id: "call_patch",
    });
    strictEqual(undo.status, 200, JSON.stringify(undo.body));
    deepStrictEqual(undo.body.files_restored, ["edit.txt"]);
    strictEqual(await Deno.readTextFile(join(ws, "edit.txt")), "alpha\nbeta\ngamma\n");
    strictEqual(
      await Deno.readTextFile(join(ws, "keep.txt")),
      "clobbered\n",
      "other calls untouched",
    );

    // Second turn edits keep.txt again; rolling back turn 1 restores the file as it was before
    // turn 1, and its preview flags that the file changed since.
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_t2",
          name: "write_file",
          args: { path: "keep.txt", content: "turn two\n" },
        }],
      },
      { text: "ok" },
    );
    await turn(h, "again");
    const pd = await h.call("GET", `/api/rollback/diff?session_id=${h.sessionId}&turn_id=${t1}`);
    const byFile = Object.fromEntries(
      (pd.body.files_changed as Array<{ file: string; status: string; changed_since: boolean }>)
        .map((f) => [f.file, `${f.status}${f.changed_since ? " changed_since" : ""}`]),
    );
    deepStrictEqual(byFile, {
      "dir/new.txt": "delete",
      "keep.txt": "restore changed_since",
      "edit.txt": "unchanged",
    });
    const rb = await h.call("POST", "/api/rollback/restore", {
      session_id: h.sessionId,
      turn_id: t1,
    });
    strictEqual(rb.status, 200, JSON.stringify(rb.body));
    strictEqual(await Deno.readTextFile(join(ws, "keep.txt")), "original\n");
    strictEqual(await Deno.stat(join(ws, "dir/new.txt")).catch(() => null), null);
    const after = await h.call<Listed>("GET", `/api/rollback/list?session_id=${h.sessionId}`);
    ok(after.body.checkpoints.filter((c) => c.turn_id === t1).every((c) => c.restored_at !== null));
  } finally {
    await h.close();
  }
});

Deno.test("rollback: the terminal's changes are captured by mtime and size, .gitignore respected", async () => {
  resetBaselines();
  const h = await startHarness();
  try {
    const ws = h.workspace;
    await Deno.writeTextFile(join(ws, "a.txt"), "a-before\n");
    await Deno.writeTextFile(join(ws, "gone.txt"), "will be removed\n");
    await Deno.writeTextFile(join(ws, ".gitignore"), "build/\n*.log\n");
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_sh",
          name: "terminal",
          args: {
            command:
              "echo a-after > a.txt && mkdir -p build && echo x > build/out.o && echo l > run.log && echo c > created.txt && rm gone.txt",
          },
        }],
      },
      { text: "ran it" },
    );
    const t = await turn(h, "run the script");
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "a-after\n");
    const list = await h.call<Listed>("GET", `/api/rollback/list?session_id=${h.sessionId}`);
    const cp = list.body.checkpoints.find((c) => c.tool_call_id === "call_sh")!;
    ok(cp, JSON.stringify(list.body));
    deepStrictEqual(cp.files.map((f) => `${f.status} ${f.path}`).sort(), [
      "added created.txt",
      "deleted gone.txt",
      "modified a.txt",
    ]);
    const rb = await h.call("POST", "/api/rollback/restore", {
      session_id: h.sessionId,
      turn_id: t,
    });
    strictEqual(rb.status, 200, JSON.stringify(rb.body));
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "a-before\n");
    strictEqual(await Deno.readTextFile(join(ws, "gone.txt")), "will be removed\n");
    strictEqual(await Deno.stat(join(ws, "created.txt")).catch(() => null), null);
    // Ignored output is neither captured nor touched.
    strictEqual(await Deno.readTextFile(join(ws, "build/out.o")), "x\n");
  } finally {
    await h.close();
  }
});

Deno.test("rollback: hostile ids, paths and swapped files are refused", async () => {
  resetBaselines();
  const h = await startHarness();
  try {
    const ws = h.workspace;
    const outside = await Deno.makeTempDir({ prefix: "hermes-rb-outside-" });
    await Deno.writeTextFile(join(outside, "secret.txt"), "secret\n");
    h.fake.enqueue(
      {
        toolCalls: [
          { id: "call_a", name: "write_file", args: { path: "sub/a.txt", content: "A\n" } },
          { id: "call_esc", name: "write_file", args: { path: "../escape.txt", content: "x" } },
          {
            id: "call_abs",
            name: "write_file",
            args: { path: join(outside, "secret.txt"), content: "x" },
          },
        ],
      },
      { text: "ok" },
    );
    await turn(h, "write");
    strictEqual(await Deno.readTextFile(join(outside, "secret.txt")), "secret\n");
    const list = await h.call<Listed>("GET", `/api/rollback/list?session_id=${h.sessionId}`);
    deepStrictEqual(list.body.checkpoints.map((c) => c.tool_call_id), ["call_a"]);

    const base = `/api/rollback/diff?session_id=${h.sessionId}`;
    for (
      const q of [
        "checkpoint=../../x",
        "checkpoint=a%00b",
        "checkpoint=" + "x".repeat(300),
        "tool_call_id=nope",
      ]
    ) {
      strictEqual((await h.call("GET", `${base}&${q}`)).status, 404, q);
    }
    strictEqual((await h.call("GET", base)).status, 400);
    strictEqual((await h.call("GET", `${base}&turn_id=a&tool_call_id=b`)).status, 400);
    strictEqual((await h.call("GET", "/api/rollback/list?session_id=../../etc")).status, 404);
    strictEqual(
      (await h.call("POST", "/api/rollback/restore", { session_id: "nope", turn_id: "x" })).status,
      404,
    );

    // The folder replaced by a symlink to outside: the restore refuses to write through it.
    await Deno.remove(join(ws, "sub"), { recursive: true });
    await Deno.symlink(outside, join(ws, "sub"));
    const swapped = await h.call("POST", "/api/rollback/restore", {
      session_id: h.sessionId,
      tool_call_id: "call_a",
    });
    strictEqual(swapped.status, 409, JSON.stringify(swapped.body));
    strictEqual(await Deno.readTextFile(join(outside, "secret.txt")), "secret\n");
    strictEqual(await Deno.stat(join(outside, "a.txt")).catch(() => null), null);
    // A file replaced by a directory: left alone, reported.
    await Deno.remove(join(ws, "sub"));
    await Deno.mkdir(join(ws, "sub/a.txt"), { recursive: true });
    const dir = await h.call("POST", "/api/rollback/restore", {
      session_id: h.sessionId,
      tool_call_id: "call_a",
    });
    strictEqual(dir.status, 409, JSON.stringify(dir.body));
    ok((await Deno.stat(join(ws, "sub/a.txt"))).isDirectory);
    await Deno.remove(outside, { recursive: true });
  } finally {
    await h.close();
  }
});

Deno.test("rollback: protected files and symlinks are never captured or shown", async () => {
  resetBaselines();
  const h = await startHarness();
  try {
    // A workspace that holds the console's own files and the user's ~/.ssh (HOME is the root).
    const sid =
      (await createSession(h.app.ctx.db, h.app.ctx.clock, { workspace: h.root })).session_id;
    await Deno.mkdir(join(h.root, ".ssh"), { recursive: true });
    await Deno.writeTextFile(join(h.root, ".ssh", "id_ed25519"), "PRIVATE-KEY-1\n");
    await Deno.writeTextFile(join(h.root, "notes.txt"), "notes\n");
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_sh",
          name: "terminal",
          args: {
            command: "ln -s notes.txt alias.txt; echo more >> notes.txt",
          },
        }],
      },
      { text: "ok" },
    );
    const { stream_id } = await h.start("go", { session_id: sid });
    await h.stream(stream_id);
    const list = await h.call<Listed>("GET", `/api/rollback/list?session_id=${sid}`);
    const paths = list.body.checkpoints.flatMap((c) => c.files.map((f) => f.path));
    ok(paths.includes("notes.txt"), JSON.stringify(paths));
    ok(
      !paths.some((p) => p.startsWith(".ssh") || p === "alias.txt" || p.startsWith("state")),
      JSON.stringify(paths),
    );
    // No stored blob holds the key.
    const objects = join(h.stateDir, "checkpoints", "objects");
    for await (const d of Deno.readDir(objects)) {
      for await (const f of Deno.readDir(join(objects, d.name))) {
        const text = await Deno.readTextFile(join(objects, d.name, f.name));
        ok(!text.includes("PRIVATE-KEY"), "a key was copied into the checkpoint store");
      }
    }
  } finally {
    await h.close();
  }
});
