// Finding 5 (file-tools half, issue 12): home as the workspace holds the console's state dir,
// config.yaml, the .env beside it, ~/.hermes and ~/.ssh. The model's file tools (driven through
// the real engine) and the workspace panel never show or touch them; the keys never surface.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import type { ScriptedToolCall } from "./fixtures/fake_provider.ts";
import {
  isProtectedPath,
  protectedPathsForWorkspace,
  protectedWorkspaceReason,
} from "../lib/workspace/protected_paths.ts";

const SECRETS = [
  "test-openai-key",
  "sk-env-123",
  "PRIVATE-KEY-BYTES",
  "STATE-SECRET",
  "AUTH-TOKEN",
];

async function seedHome(root: string, stateDir: string) {
  await Deno.mkdir(stateDir, { recursive: true });
  await Deno.writeTextFile(join(stateDir, "probe.txt"), "STATE-SECRET\n");
  await Deno.writeTextFile(join(root, ".env"), "OPENAI_API_KEY=sk-env-123\n");
  await Deno.mkdir(join(root, ".ssh"));
  await Deno.writeTextFile(join(root, ".ssh", "id_ed25519"), "PRIVATE-KEY-BYTES\n");
  await Deno.mkdir(join(root, ".hermes"));
  await Deno.writeTextFile(join(root, ".hermes", "auth.json"), '{"token":"AUTH-TOKEN"}\n');
  await Deno.writeTextFile(join(root, "notes.txt"), "ordinary notes\n");
  // Links inside the workspace that lead to protected paths.
  await Deno.symlink(join(root, "config.yaml"), join(root, "cfg-link"));
  await Deno.symlink(stateDir, join(root, "state-link"));
  // A hard link: the config file under an innocent name.
  await Deno.link(join(root, "config.yaml"), join(root, "cfg-hardlink.txt"));
}

const snapshot = async (paths: string[]) =>
  Object.fromEntries(
    await Promise.all(paths.map(async (p) => [p, await Deno.readTextFile(p).catch(() => null)])),
  );

Deno.test("file tools refuse the state dir, config, .env, ~/.hermes and ~/.ssh in a home workspace", async () => {
  const h = await startHarness();
  try {
    await seedHome(h.root, h.stateDir);
    h.sessionId = await h.newSession({ workspace: h.root });
    const guarded = [
      join(h.root, "config.yaml"),
      join(h.root, ".env"),
      join(h.root, ".ssh", "id_ed25519"),
      join(h.root, ".ssh", "authorized_keys"),
      join(h.root, ".hermes", "auth.json"),
      join(h.stateDir, "probe.txt"),
      join(h.stateDir, "new.txt"),
    ];
    const before = await snapshot(guarded);

    const refused: ScriptedToolCall[] = [];
    for (
      const path of [
        "config.yaml",
        ".env",
        ".ssh/id_ed25519",
        ".hermes/auth.json",
        "state/probe.txt",
        "cfg-link",
        "state-link/probe.txt",
        "cfg-hardlink.txt",
      ]
    ) {
      refused.push(
        { name: "read_file", args: { path } },
        { name: "patch", args: { path, old_string: "e", new_string: "E" } },
        { name: "write_file", args: { path, content: "pwned\n" } },
      );
    }
    refused.push(
      { name: "write_file", args: { path: ".ssh/authorized_keys", content: "ssh-ed25519 AAAA\n" } },
      { name: "write_file", args: { path: "state/new.txt", content: "x\n" } },
      { name: "write_file", args: { path: "state-link/new.txt", content: "x\n" } },
      { name: "list_directory", args: { path: "state" } },
      { name: "list_directory", args: { path: ".ssh" } },
      { name: "list_directory", args: { path: ".hermes" } },
      { name: "list_directory", args: { path: "state-link" } },
      { name: "search_files", args: { pattern: "x", path: "state" } },
      { name: "search_files", args: { pattern: "x", path: ".env" } },
    );
    const allowed: ScriptedToolCall[] = [
      { name: "list_directory", args: { path: "." } },
      // Matches every secret without spelling one (the "no matches" reply echoes the pattern).
      {
        name: "search_files",
        args: { pattern: SECRETS.map((k) => k.replace(/.$/, ".")).join("|") },
      },
      { name: "search_files", args: { pattern: "**/*", target: "files", limit: 500 } },
      { name: "read_file", args: { path: "notes.txt" } },
    ];
    h.fake.enqueue({ toolCalls: [...refused, ...allowed] }, { text: "done" });
    const { stream_id } = await h.start("look for keys");
    const res = await h.stream(stream_id);
    const completes = res.events.filter((e) => e.event === "tool_complete").map((e) =>
      e.data as { name: string; args: Record<string, unknown>; is_error: boolean }
    );
    strictEqual(completes.length, refused.length + allowed.length);
    const wrongly = completes.slice(0, refused.length).filter((c) => !c.is_error);
    deepStrictEqual(wrongly.map((c) => [c.name, c.args.path]), [], "protected calls succeeded");
    deepStrictEqual(
      completes.slice(refused.length).map((c) => c.is_error),
      allowed.map(() => false),
    );

    // Nothing protected reached the model, not even by name in a listing or a file search.
    const last = h.fake.chatRequests.at(-1)!.body as {
      messages: Array<{ role: string; content?: unknown }>;
    };
    const results = last.messages.filter((m) => m.role === "tool").map((m) =>
      typeof m.content === "string" ? m.content : JSON.stringify(m.content)
    );
    const seen = results.join("\n");
    for (const secret of SECRETS) ok(!seen.includes(secret), `${secret} reached the model`);
    const [top, , files, notes] = results.slice(refused.length);
    for (const name of ["config.yaml", ".env", ".ssh", ".hermes", "state/"]) {
      ok(!top.includes(name), `list_directory showed ${name}: ${top}`);
    }
    match(top, /notes\.txt/);
    match(files, /notes\.txt/);
    for (const name of ["config.yaml", ".env", "id_ed25519", "auth.json", "probe.txt"]) {
      ok(!files.includes(name), `search_files named ${name}`);
    }
    match(notes, /ordinary notes/);
    deepStrictEqual(await snapshot(guarded), before, "a protected file was changed or created");
  } finally {
    await h.close();
  }
});

Deno.test("the workspace panel hides and refuses protected paths in a home workspace", async () => {
  const h = await startHarness();
  try {
    await seedHome(h.root, h.stateDir);
    const sid = await h.newSession({ workspace: h.root });
    const list = await h.call("GET", `/api/list?session_id=${sid}&path=.`);
    strictEqual(list.status, 200);
    const names = (list.body.entries as Array<{ name: string }>).map((e) => e.name);
    for (const hidden of ["config.yaml", ".env", ".ssh", ".hermes", "state"]) {
      ok(!names.includes(hidden), `/api/list showed ${hidden}`);
    }
    ok(names.includes("notes.txt"));
    for (
      const path of [
        "config.yaml",
        ".env",
        ".ssh/id_ed25519",
        ".hermes/auth.json",
        "state/probe.txt",
        "cfg-link",
        "state-link/probe.txt",
        "cfg-hardlink.txt",
      ]
    ) {
      for (const route of ["/api/file", "/api/file/raw"]) {
        const r = await h.call(
          "GET",
          `${route}?session_id=${sid}&path=${encodeURIComponent(path)}`,
        );
        strictEqual(r.status, 404, `${route} ${path}`);
        for (const s of SECRETS) ok(!JSON.stringify(r.body).includes(s));
      }
    }
    for (const path of [".ssh", ".hermes", "state", "state-link"]) {
      const r = await h.call("GET", `/api/list?session_id=${sid}&path=${path}`);
      strictEqual(r.status, 404, `/api/list ${path}`);
    }
  } finally {
    await h.close();
  }
});

Deno.test("a workspace inside a protected path is refused; one containing them is accepted", async () => {
  const h = await startHarness();
  try {
    await seedHome(h.root, h.stateDir);
    const inside = await h.call("POST", "/api/workspaces/add", { path: join(h.root, ".hermes") });
    strictEqual(inside.status, 400);
    match(
      inside.body.error,
      /\.hermes, which holds the console's state, configuration or credentials/,
    );
    const state = await h.call("POST", "/api/workspaces/add", { path: h.stateDir });
    strictEqual(state.status, 400);
    const home = await h.call("POST", "/api/workspaces/add", { path: h.root });
    strictEqual(home.status, 200, JSON.stringify(home.body));
  } finally {
    await h.close();
  }
});

Deno.test("protectedPathsForWorkspace() lists the protected paths inside a workspace, real paths", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const config = {
      home: root,
      stateDir: join(root, ".hermes", "webui"),
      configPath: join(root, ".hermes", "config.yaml"),
    };
    const list = await protectedPathsForWorkspace(config, root);
    for (const p of [".hermes", ".hermes/webui", ".hermes/config.yaml", ".hermes/.env", ".ssh"]) {
      ok(list.includes(join(root, p)), `missing ${p}`);
    }
    deepStrictEqual(await protectedPathsForWorkspace(config, join(root, "project-x")), []);
    ok(isProtectedPath(join(root, ".ssh", "id_rsa"), list));
    ok(!isProtectedPath(join(root, ".sshx"), list));
    ok(!isProtectedPath(root, list));
    strictEqual(await protectedWorkspaceReason(config, join(root, "p")), null);
    match((await protectedWorkspaceReason(config, join(root, ".ssh")))!, /\.ssh/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
