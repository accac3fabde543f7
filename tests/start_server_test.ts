// The replica and permission tests' process fixture (tests/fixtures/start_server.ts): a server
// that dies while starting fails the caller at once with its own error, not after the whole
// health-poll window with "never became healthy".
import { ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "./fixtures/start_server.ts";

Deno.test("startServer() reports a child that exits at start with the child's own error", async () => {
  const root = await Deno.makeTempDir({ prefix: "hermes-start-fail-" });
  try {
    await Deno.mkdir(join(root, "workspace"));
    await rejects(
      // A database URL the console refuses: main.ts exits with a configuration error. The
      // window is far longer than any test: only the child's exit can end the wait.
      startServer(root, { env: { HERMES_DATABASE_URL: "mysql://nowhere" }, timeoutMs: 3_600_000 }),
      (err: Error) => {
        ok(/exited \(code [1-9]\d*\) before it was healthy/.test(err.message), err.message);
        ok(err.message.includes("HERMES_DATABASE_URL must be a postgres://"), err.message);
        return true;
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
