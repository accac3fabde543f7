// The container image's layout: its command runs the server with exactly the `start` task's
// permission flags, and the app user owns the checkout, state dir and workspace. Building and
// running the image needs a container engine and a base image: that is the slow lane's
// (tests/slow/container_image_test.ts, `deno task test:slow`).
import { deepStrictEqual, ok } from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;

/** The `deno run` flags of the `start` task (deno.json is the one source of truth). */
async function startRunArgs(): Promise<string[]> {
  const deno = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const cmd = (deno.tasks.start as string).split("&&").map((s) => s.trim()).find((s) =>
    s.startsWith("deno run")
  )!;
  return cmd.split(/\s+/);
}

Deno.test("the image runs start's flags and prepares /app, /data, /workspace for its user", async () => {
  const dockerfile = await Deno.readTextFile(`${ROOT}Dockerfile`);
  const cmdLine = dockerfile.split("\n").find((l) => l.startsWith("CMD "))!;
  deepStrictEqual(
    JSON.parse(cmdLine.slice(4)),
    await startRunArgs(),
    "the Dockerfile's CMD must run deno.json's `start` flags (update it when they change)",
  );
  const userAt = dockerfile.indexOf("\nUSER hermes");
  const chownAt = dockerfile.search(/chown hermes:hermes \/app \/data \/workspace/);
  ok(chownAt > 0 && chownAt < userAt, "the dirs are chowned before USER");
  ok(dockerfile.indexOf("\nVOLUME") > userAt, "volumes are declared after their dirs exist");
  const compose = await Deno.readTextFile(`${ROOT}compose.yaml`);
  ok(/healthcheck:/.test(compose) && /hermes-data:\/data/.test(compose));
});
