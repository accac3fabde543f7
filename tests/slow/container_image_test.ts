// The container image for real (the slow lane, `deno task test:slow`): where a container engine
// runs (docker, or podman with runc) the image builds, starts on a fresh named volume and answers
// /health, inside (HEALTHCHECK) and out. Without an engine or without the base image (no
// registry reachable), it is skipped with its reason printed. Its layout is checked in every
// run by tests/container_test.ts.
import { ok, strictEqual } from "node:assert/strict";
import { needs } from "../fixtures/skip.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const BASE_IMAGE = Deno.env.get("HERMES_CONTAINER_BASE") ?? "node:20-bookworm-slim";

async function run(cmd: string[], timeoutMs = 60_000): Promise<{ ok: boolean; out: string }> {
  try {
    const out = await new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
    const dec = new TextDecoder();
    return { ok: out.success, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
  } catch (err) {
    return { ok: false, out: String(err) };
  }
}

/**
 * A usable engine: docker with a running daemon, else podman. Podman in a nested sandbox
 * needs runc (crun refuses hybrid cgroups) and ulimits below the host's hard limits.
 */
async function probeEngine(): Promise<{ cmd: string[]; runFlags: string[] } | string> {
  if ((await run(["docker", "info"], 20_000)).ok) return { cmd: ["docker"], runFlags: [] };
  if (!(await run(["podman", "--version"], 20_000)).ok) {
    return "neither a docker daemon nor podman is available";
  }
  const hasRunc = (await run(["runc", "--version"], 10_000)).ok;
  const podman = {
    cmd: hasRunc ? ["podman", "--runtime", "runc"] : ["podman"],
    runFlags: [
      "--ulimit=nofile=1024:1024",
      "--ulimit=nproc=1024:1024",
    ],
  };
  const base = await run([...podman.cmd, "image", "exists", BASE_IMAGE], 20_000);
  if (!base.ok) {
    const pull = await run([...podman.cmd, "pull", BASE_IMAGE], 120_000);
    if (!pull.ok) {
      return `podman cannot get the base image ${BASE_IMAGE} (${
        pull.out.trim().split("\n").at(-1)
      }); set HERMES_CONTAINER_BASE to a local node + npm bookworm image`;
    }
  }
  return podman;
}

const engine = Deno.env.get("HERMES_SKIP_CONTAINER")
  ? "HERMES_SKIP_CONTAINER is set"
  : await probeEngine();

/**
 * Where the host reaches registries through a TLS-intercepting proxy (its CA in
 * NODE_EXTRA_CA_CERTS), the build trusts the host's CA bundle too (podman mounts it for RUN).
 */
function proxyCaArgs(engineName: string): string[] {
  const extra = Deno.env.get("NODE_EXTRA_CA_CERTS");
  if (!extra || engineName !== "podman") return [];
  return [
    "--volume=/etc/ssl/certs:/etc/ssl/certs:ro",
    "--build-arg=NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt",
    "--build-arg=DENO_TLS_CA_STORE=system",
  ];
}

Deno.test(needs(typeof engine === "string" && engine, {
  name: "the image builds, starts on a fresh named volume and answers /health",
  async fn() {
    if (typeof engine === "string") return;
    const tag = `localhost/hermes-console-test:${Date.now()}`;
    const volume = `hermes-test-${Date.now()}`;
    const name = `hermes-test-${Date.now()}`;
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const build = await run([
      ...engine.cmd,
      "build",
      "--format=docker", // keeps HEALTHCHECK (podman's OCI format drops it)
      "--network=host",
      ...engine.runFlags,
      `--build-arg=BASE_IMAGE=${BASE_IMAGE}`,
      ...proxyCaArgs(engine.cmd[0]),
      "-t",
      tag,
      ROOT,
    ], 1_200_000);
    ok(build.ok, `image build failed:\n${build.out.slice(-3000)}`);
    try {
      const started = await run([
        ...engine.cmd,
        "run",
        "-d",
        "--name",
        name,
        ...engine.runFlags,
        "-p",
        `127.0.0.1:${port}:8787`,
        "-e",
        "HERMES_WEBUI_PASSWORD=container test password",
        "-v",
        `${volume}:/data`,
        tag,
      ]);
      ok(started.ok, started.out);
      let health: Record<string, unknown> | null = null;
      for (let i = 0; i < 120 && !health; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/health`);
          if (res.ok) health = await res.json();
          else await res.body?.cancel();
        } catch { /* not up yet */ }
        if (!health) await new Promise((r) => setTimeout(r, 500));
      }
      const logs = await run([...engine.cmd, "logs", name]);
      ok(health, `no /health answer; container logs:\n${logs.out.slice(-3000)}`);
      strictEqual(health.status, "ok");
      // The image's own HEALTHCHECK passes too.
      const check = await run([...engine.cmd, "healthcheck", "run", name]);
      if (engine.cmd[0] === "podman") ok(check.ok, check.out);
    } finally {
      await run([...engine.cmd, "rm", "-f", name]);
      await run([...engine.cmd, "volume", "rm", "-f", volume]);
      await run([...engine.cmd, "rmi", "-f", tag]);
    }
  },
}));
