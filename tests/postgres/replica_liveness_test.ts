// A replica that stalls is not a replica that died (lib/replicas/replica_liveness.ts). A run's
// owner frozen (SIGSTOP) for longer than its lease keeps the run: the other replica's sweeps see
// the lapsed lease but also the owner's connection, and the run finishes whole once the owner
// goes on. Frozen past the hung limit, its runs are recovered all the same. Real processes, as
// `deno task start` runs them, on one PostgreSQL database (the lane's; it never skips).
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import type { RecordedRequest, ScriptedResponse } from "../fixtures/fake_provider.ts";
import {
  leaseEnv,
  type StartedServer,
  startFlags,
  startServer,
  TEST_LEASES,
} from "../fixtures/start_server.ts";
import { readSse, tokenText } from "../fixtures/sse_client.ts";
import { within } from "../fixtures/within.ts";

const DATABASE_URL = Deno.env.get("HERMES_TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/hermes_test";

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i} `);

/** A long answer: 60 words, 50 ms apart (three seconds of streaming). */
function respond(_req: RecordedRequest): ScriptedResponse {
  return { text: words(60, "s"), delayMs: 50 };
}

async function post<T>(server: StartedServer, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "x-hermes-csrf-token": server.token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

async function startRun(server: StartedServer): Promise<string> {
  const { session } = await post<{ session: { session_id: string } }>(
    server,
    "/api/session/new",
    {},
  );
  const { stream_id } = await post<{ stream_id: string }>(server, "/api/chat/start", {
    session_id: session.session_id,
    message: "write slowly",
  });
  return stream_id;
}

/** Freeze a server's process (as a loaded machine or a long stall would), then let it go on. */
function freeze(server: StartedServer): () => void {
  Deno.kill(server.child.pid, "SIGSTOP");
  return () => Deno.kill(server.child.pid, "SIGCONT");
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `server` has logged a line matching `pattern`. */
async function logSays(server: StartedServer, pattern: RegExp): Promise<void> {
  while (!pattern.test(server.log())) await pause(50);
}

Deno.test({
  name: "replicas: a stalled owner keeps its run past its lease; a hung one loses it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const fake = startFakeProvider({ respond });
    const root = await Deno.makeTempDir({ prefix: "hermes-liveness-" });
    await Deno.mkdir(join(root, "workspace"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "config.yaml"),
      `model:\n  provider: custom\n  base_url: ${fake.baseUrl}\n  default: fake-model\n`,
    );
    const flags = await startFlags();
    const env = {
      HERMES_DATABASE_URL: DATABASE_URL,
      HERMES_DATABASE_ISOLATE: "1",
      ...leaseEnv(),
    };
    const servers: StartedServer[] = [];
    const launch = async (extra: Record<string, string> = {}) => {
      const s = await startServer(root, { flags, env: { ...env, ...extra } });
      servers.push(s);
      return s;
    };
    try {
      const owner = await launch();
      const watcher = await launch();

      await t.step("frozen for twice its lease, the owner finishes its run whole", async () => {
        const stream = await startRun(owner);
        const follower = within(readSse(watcher.base, stream), "following the run on B", 60);
        // Frozen once the answer has begun (the watcher has heard some of it).
        const begun = await within(
          readSse(watcher.base, stream, {
            stopWhen: (_e, all) => all.some((x) => x.event === "token"),
          }),
          "the run's first token",
        );
        ok(begun.events.length > 0);
        const thaw = freeze(owner);
        // Several of the watcher's sweeps see the lease lapsed while the owner is frozen.
        await pause(TEST_LEASES.leaseSeconds * 2000 + TEST_LEASES.sweepMs * 3);
        thaw();
        const read = await follower;
        ok(read.closedByServer, "the follower saw the run end");
        strictEqual(
          read.events.find((e) => e.event === "apperror")?.data.type,
          undefined,
          "the run was not taken over",
        );
        strictEqual(tokenText(read.events), words(60, "s").join(""));
        ok(!/recovered \d+ run/.test(watcher.log()), "the watcher recovered nothing");
      });

      await t.step("frozen past the hung limit, its run is recovered by another", async () => {
        const sweeper = await launch({ HERMES_REPLICA_HUNG_SECONDS: "2" });
        const stream = await startRun(owner);
        await within(
          readSse(sweeper.base, stream, {
            stopWhen: (_e, all) => all.some((x) => x.event === "token"),
          }),
          "the run's first token",
        );
        const follower = within(readSse(sweeper.base, stream), "following the run on C", 60);
        const thaw = freeze(owner);
        try {
          const read = await follower;
          ok(read.closedByServer);
          strictEqual(read.events.find((e) => e.event === "apperror")?.data.type, "interrupted");
          // Its log line may arrive after the stream's last event (the pipe is read apart).
          await within(logSays(sweeper, /recovered \d+ run/), "the sweeper's log of the recovery");
        } finally {
          thaw();
        }
      });
    } finally {
      for (const s of servers) await s.stop("SIGKILL").catch(() => {});
      await fake.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
