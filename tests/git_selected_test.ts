// The Git panel's original-parity routes against real repositories: the original's answer shapes
// (`git` key, branches as objects, checkout by ref/mode), commit of selected files only (with its
// structured 400), commit messages written by the model from the staged or the selected diff
// (through the OpenAI-compatible fake provider on loopback), and stash-and-switch.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { git } from "./git_fixture.ts";
import { type FakeProvider, startFakeProvider } from "./fixtures/fake_provider.ts";
import { providerYaml } from "./fixtures/engine_harness.ts";

interface Ctx {
  app: TestApp;
  ws: string;
  fake: FakeProvider;
  // deno-lint-ignore no-explicit-any
  get(path: string): Promise<{ status: number; body: any }>;
  // deno-lint-ignore no-explicit-any
  post(path: string, body?: Record<string, unknown>): Promise<{ status: number; body: any }>;
}

async function withRepo(fn: (c: Ctx) => Promise<void>, opts: { commit?: boolean } = {}) {
  const fake = startFakeProvider();
  const app = await createTestApp({ configYaml: providerYaml("openai", fake.baseUrl) });
  try {
    const ws = await Deno.realPath(app.workspace);
    await git(ws, "init", "-q");
    if (opts.commit !== false) {
      await Deno.writeTextFile(join(ws, "selected.txt"), "one\n");
      await Deno.writeTextFile(join(ws, "other.txt"), "alpha\n");
      await git(ws, "add", ".");
      await git(ws, "commit", "-q", "-m", "initial");
    }
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn({
      app,
      ws,
      fake,
      get: (path) =>
        app.call("GET", `/api/git/${path}${path.includes("?") ? "&" : "?"}session_id=${sid}`),
      post: (path, body = {}) => app.call("POST", `/api/git/${path}`, { session_id: sid, ...body }),
    });
  } finally {
    await app.close();
    await fake.close();
  }
}

const show = async (ws: string) =>
  (await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n");
/** What the model was asked: the last chat request's user message. */
const asked = (fake: FakeProvider) => {
  const body = fake.chatRequests.at(-1)!.body as { messages: Array<{ content: unknown }> };
  return JSON.stringify(body.messages);
};

Deno.test("git routes answer in the original's shapes: git key, branches as objects, ref/mode checkout", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await git(ws, "branch", "feature");
    await Deno.writeTextFile(join(ws, "selected.txt"), "one\ntwo\n");
    const st = await get("status");
    strictEqual(st.status, 200);
    strictEqual(st.body.git.totals.unstaged, 1);
    const staged = await post("stage", { paths: ["selected.txt"] });
    strictEqual(staged.status, 200);
    strictEqual(staged.body.ok, true);
    strictEqual(staged.body.git.totals.staged, 1);
    const un = await post("unstage", { paths: ["selected.txt"] });
    strictEqual(un.body.git.totals.unstaged, 1);
    const dis = await post("discard", { paths: ["selected.txt"], confirm: true });
    strictEqual(dis.body.git.totals.changed, 0);

    const br = await get("branches");
    strictEqual(br.status, 200);
    strictEqual(br.body.branches.current, "main");
    strictEqual(br.body.branches.detached, false);
    const feature = br.body.branches.local.find((b: { name: string }) => b.name === "feature");
    ok(feature, JSON.stringify(br.body));
    for (const key of ["sha", "updated", "updated_relative", "author", "subject", "upstream"]) {
      ok(key in feature, `branch object lacks ${key}`);
    }
    strictEqual(feature.subject, "initial");
    deepStrictEqual(br.body.branches.remote, []);

    const co = await post("checkout", { ref: "feature", mode: "local", dirty_mode: "block" });
    strictEqual(co.status, 200, JSON.stringify(co.body));
    strictEqual(co.body.ok, true);
    strictEqual(co.body.current_branch, "feature");
    strictEqual(co.body.git.branch, "feature");
    strictEqual(co.body.branches.current, "feature");
    // The original refuses a dirty worktree with dirty_mode "block".
    await Deno.writeTextFile(join(ws, "other.txt"), "dirty\n");
    const blocked = await post("checkout", { ref: "main", mode: "local", dirty_mode: "block" });
    strictEqual(blocked.status, 409);
    strictEqual(blocked.body.code, "dirty_worktree");
    strictEqual(await Deno.readTextFile(join(ws, "other.txt")), "dirty\n");
    const created = await post("checkout", { ref: "main", mode: "new", new_branch: "fresh" });
    strictEqual(created.status, 409, "still dirty");
    await git(ws, "checkout", "--", "other.txt");
    const fresh = await post("checkout", { ref: "main", mode: "new", new_branch: "fresh" });
    strictEqual(fresh.body.current_branch, "fresh");
    const sha = (await git(ws, "rev-parse", "--short", "HEAD")).trim();
    const det = await post("checkout", { ref: sha, mode: "detached" });
    strictEqual(det.status, 200, JSON.stringify(det.body));
    strictEqual(det.body.branches.detached, true);
    strictEqual(det.body.branches.current, sha);
    strictEqual((await post("checkout", { ref: "nope", mode: "local" })).status, 404);
    strictEqual((await post("checkout", { ref: "-f", mode: "local" })).status, 400);
  });
});

Deno.test("POST /api/git/commit-selected commits only the selected files", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "selected.txt"), "one\ntwo\n");
    await Deno.writeTextFile(join(ws, "other.txt"), "alpha\nbeta\n");
    await git(ws, "add", "other.txt");

    for (const bad of ["../x", "/etc/passwd", "a\0b", "%2e%2e/x"]) {
      const r = await post("commit-selected", { message: "Bad", paths: [bad] });
      strictEqual(r.status, 400, JSON.stringify(r.body));
      strictEqual(r.body.code, "path_outside_workspace");
    }
    const clean = await post("commit-selected", { message: "x", paths: ["nothing.txt"] });
    strictEqual(clean.status, 400);
    strictEqual(
      (await post("commit-selected", { message: " ", paths: ["selected.txt"] })).status,
      400,
    );
    strictEqual((await git(ws, "rev-list", "--count", "HEAD")).trim(), "1", "nothing committed");

    const c = await post("commit-selected", {
      message: "Selected route commit",
      paths: ["selected.txt"],
    });
    strictEqual(c.status, 200, JSON.stringify(c.body));
    strictEqual(c.body.ok, true);
    deepStrictEqual(c.body.paths, ["selected.txt"]);
    strictEqual(c.body.commit.length, 40);
    deepStrictEqual(await show(ws), ["selected.txt"]);
    // The unrelated staged change is still staged, and the selected file is clean.
    const files = (await get("status")).body.git.files;
    deepStrictEqual(files.map((f: { path: string; staged: boolean }) => [f.path, f.staged]), [
      ["other.txt", true],
    ]);

    // Untracked and tracked together; a staged rename keeps both sides.
    await Deno.writeTextFile(join(ws, "selected.txt"), "one\ntwo\nthree\n");
    await Deno.writeTextFile(join(ws, "new.txt"), "new\n");
    const mixed = await post("commit-selected", {
      message: "Mixed",
      paths: ["selected.txt", "new.txt"],
    });
    strictEqual(mixed.status, 200, JSON.stringify(mixed.body));
    deepStrictEqual((await show(ws)).sort(), ["new.txt", "selected.txt"]);
    await git(ws, "mv", "new.txt", "renamed.txt");
    const ren = await post("commit-selected", { message: "Rename", paths: ["renamed.txt"] });
    strictEqual(ren.status, 200, JSON.stringify(ren.body));
    const tree = (await git(ws, "ls-tree", "--name-only", "HEAD")).trim().split("\n");
    ok(tree.includes("renamed.txt") && !tree.includes("new.txt"), tree.join(","));
    strictEqual((await git(ws, "diff", "--cached", "--name-only")).trim(), "other.txt");
  });
});

Deno.test("POST /api/git/commit-selected makes a first commit", async () => {
  await withRepo(async ({ ws, post }) => {
    await Deno.writeTextFile(join(ws, "first.txt"), "first\n");
    await Deno.writeTextFile(join(ws, "later.txt"), "later\n");
    const r = await post("commit-selected", { message: "Initial", paths: ["first.txt"] });
    strictEqual(r.status, 200, JSON.stringify(r.body));
    deepStrictEqual(await show(ws), ["first.txt"]);
    ok((await git(ws, "status", "--porcelain")).includes("?? later.txt"));
  }, { commit: false });
});

Deno.test("POST /api/git/commit-message writes a message from the staged diff only", async () => {
  await withRepo(async ({ ws, fake, post }) => {
    const none = await post("commit-message");
    strictEqual(none.status, 400);
    strictEqual(none.body.code, "nothing_staged");
    strictEqual(fake.chatRequests.length, 0);

    await Deno.writeTextFile(join(ws, "selected.txt"), "one\nstaged line\n");
    await git(ws, "add", "selected.txt");
    await Deno.writeTextFile(join(ws, "selected.txt"), "one\nstaged line\nunstaged line\n");
    fake.enqueue({ text: "```text\nAdd the staged line\n\n- explain it\n```" });
    const r = await post("commit-message");
    strictEqual(r.status, 200, JSON.stringify(r.body));
    deepStrictEqual(r.body, {
      ok: true,
      message: "Add the staged line\n\n- explain it",
      truncated: false,
    });
    const prompt = asked(fake);
    ok(prompt.includes("+staged line"), prompt);
    ok(prompt.includes("selected.txt"));
    ok(!prompt.includes("unstaged line"), "the unstaged change is not in the prompt");
    // Nothing was committed: the person reviews the message first.
    strictEqual((await git(ws, "rev-list", "--count", "HEAD")).trim(), "1");

    // A failing model is a 502, never a 500 or a commit.
    fake.enqueue({ status: 500, error: { message: "boom" } });
    const failed = await post("commit-message");
    ok(failed.status === 502, JSON.stringify(failed));
  });
});

Deno.test("POST /api/git/commit-message-selected writes a message from the selected files", async () => {
  await withRepo(async ({ ws, fake, post }) => {
    await Deno.writeTextFile(join(ws, "selected.txt"), "one\ntwo\n");
    await Deno.writeTextFile(join(ws, "other.txt"), "alpha\nbeta\n");
    await Deno.writeTextFile(join(ws, "brand-new.txt"), "hello new\n");
    const bad = await post("commit-message-selected", { paths: ["../x"] });
    strictEqual(bad.status, 400);
    strictEqual(bad.body.code, "path_outside_workspace");
    fake.enqueue({ text: '"Add two and a new file"' });
    const r = await post("commit-message-selected", { paths: ["selected.txt", "brand-new.txt"] });
    strictEqual(r.status, 200, JSON.stringify(r.body));
    strictEqual(r.body.message, "Add two and a new file");
    strictEqual(r.body.truncated, false);
    const prompt = asked(fake);
    ok(prompt.includes("+two") && prompt.includes("+hello new"), prompt);
    ok(!prompt.includes("beta") && !prompt.includes("other.txt"), prompt);
  });
});

Deno.test("POST /api/git/stash-checkout parks local changes and gives them back", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await git(ws, "branch", "feature");
    await Deno.writeTextFile(join(ws, "selected.txt"), "main dirty\n");
    await Deno.writeTextFile(join(ws, "main-only.txt"), "untracked on main\n");

    // A bad target is refused before anything is stashed.
    const bad = await post("stash-checkout", { ref: "missing-branch", mode: "local" });
    strictEqual(bad.status, 404);
    strictEqual((await git(ws, "stash", "list")).trim(), "");
    strictEqual(await Deno.readTextFile(join(ws, "selected.txt")), "main dirty\n");

    const away = await post("stash-checkout", { ref: "feature", mode: "local" });
    strictEqual(away.status, 200, JSON.stringify(away.body));
    strictEqual(away.body.stashed, true);
    ok(away.body.stash_name.startsWith("hermes-webui branch switch"));
    strictEqual(away.body.current_branch, "feature");
    strictEqual(away.body.git.totals.changed, 0);
    strictEqual(await Deno.stat(join(ws, "main-only.txt")).catch(() => null), null);
    ok((await git(ws, "stash", "list")).includes("hermes-webui branch switch to feature"));

    await Deno.writeTextFile(join(ws, "feature-only.txt"), "untracked on feature\n");
    const home = await post("stash-checkout", { ref: "main", mode: "local" });
    strictEqual(home.status, 200, JSON.stringify(home.body));
    strictEqual(home.body.current_branch, "main");
    strictEqual(home.body.restored_stash.branch, "main");
    strictEqual(home.body.restore_failed, false);
    strictEqual(await Deno.readTextFile(join(ws, "selected.txt")), "main dirty\n");
    strictEqual(await Deno.readTextFile(join(ws, "main-only.txt")), "untracked on main\n");
    strictEqual(await Deno.stat(join(ws, "feature-only.txt")).catch(() => null), null);
    const stashes = await git(ws, "stash", "list");
    ok(!stashes.includes("On main: hermes-webui"), stashes);
    ok(stashes.includes("On feature: hermes-webui"), stashes);
    strictEqual((await get("status")).body.git.totals.changed, 2);
  });
});

Deno.test("POST /api/git/stash-checkout reports a restore that conflicts and keeps its stash", async () => {
  await withRepo(async ({ ws, post }) => {
    await git(ws, "branch", "feature");
    await Deno.writeTextFile(join(ws, "selected.txt"), "main dirty\n");
    strictEqual((await post("stash-checkout", { ref: "feature", mode: "local" })).status, 200);
    await git(ws, "checkout", "-q", "main");
    await Deno.writeTextFile(join(ws, "selected.txt"), "main changed while parked\n");
    await git(ws, "commit", "-q", "-am", "advance main");
    await git(ws, "checkout", "-q", "feature");
    const r = await post("stash-checkout", { ref: "main", mode: "local" });
    strictEqual(r.status, 200, JSON.stringify(r.body));
    strictEqual(r.body.current_branch, "main");
    strictEqual(r.body.restore_failed, true);
    strictEqual(r.body.restore_stash.branch, "main");
    ok(r.body.restore_error.length > 0);
    ok((await git(ws, "stash", "list")).includes("On main: hermes-webui branch switch"));
  });
});
