import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../lib/settings/config.ts";
import {
  type CatalogEvent,
  ModelCatalog,
  type ModelCatalogOptions,
} from "../lib/models/model_catalog.ts";
import type { ModelGroup, ModelsResponse } from "../lib/models/model_groups.ts";
import { ManualTimers } from "../lib/timers.ts";
import { createTestApp } from "./helpers.ts";
import { scaled } from "./fixtures/scale.ts";

/**
 * A fake OpenAI-compatible endpoint on a loopback port. `answer`: replies at once; `hang`:
 * never replies (until the client gives up); `gated`: replies once the test opens the gate.
 */
class FakeEndpoint {
  readonly requests: Array<{ path: string; auth: string | null }> = [];
  #server: Deno.HttpServer;
  #gate = Promise.withResolvers<void>();
  #closing = Promise.withResolvers<void>();
  #arrived: Array<() => void> = [];

  constructor(public mode: "answer" | "hang" | "gated", public models: string[] = []) {
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const url = new URL(req.url);
      this.requests.push({
        path: url.pathname + url.search,
        auth: req.headers.get("authorization"),
      });
      for (const fn of this.#arrived.splice(0)) fn();
      // A request the client gave up on stays parked until close(); its answer goes nowhere.
      if (this.mode === "hang") await this.#closing.promise;
      if (this.mode === "gated") await Promise.race([this.#gate.promise, this.#closing.promise]);
      return Response.json({
        object: "list",
        data: this.models.map((id) => ({ id, object: "model" })),
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.addr as Deno.NetAddr).port}/v1`;
  }

  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number): Promise<void> {
    return deadlockGuard(
      (async () => {
        while (this.requests.length < n) await new Promise<void>((r) => this.#arrived.push(r));
      })(),
      `request ${n} never arrived`,
    );
  }

  open(): void {
    this.#gate.resolve();
  }

  async close(): Promise<void> {
    this.#closing.resolve();
    await this.#server.shutdown();
  }
}

/** Fail (instead of hanging the suite) when `p` never settles: the symptom of a deadlock. */
async function deadlockGuard<T>(p: Promise<T>, label = "deadlock"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(label)), 10_000);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** A URL whose port refuses connections: bound, then closed. */
function refusedUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
}

interface Fixture {
  catalog: ModelCatalog;
  timers: ManualTimers;
  events: CatalogEvent[];
  configPath: string;
  stateDir: string;
  /** Resolves at the next event matching `pred`. */
  nextEvent(pred: (e: CatalogEvent) => boolean): Promise<CatalogEvent>;
  close(): Promise<void>;
}

async function fixture(
  yaml: string,
  opts: Partial<ModelCatalogOptions> & {
    start?: number;
    root?: string;
    env?: Record<string, string>;
  } = {},
): Promise<Fixture> {
  const root = opts.root ?? await Deno.makeTempDir({ prefix: "hermes-models-" });
  const configPath = join(root, "config.yaml");
  const stateDir = join(root, "state");
  await Deno.writeTextFile(configPath, yaml);
  const config = loadConfig({
    HOME: root,
    HERMES_CONFIG_PATH: configPath,
    HERMES_WEBUI_STATE_DIR: stateDir,
    ...opts.env,
  });
  const timers = new ManualTimers(opts.start ?? 0);
  const events: CatalogEvent[] = [];
  const watchers: Array<[(e: CatalogEvent) => boolean, (e: CatalogEvent) => void]> = [];
  const catalog = new ModelCatalog({
    getConfig: () => config,
    stateDir,
    timers,
    budgetSeconds: 4,
    ...opts,
    onEvent: (e) => {
      events.push(e);
      for (const w of watchers.splice(0)) w[0](e) ? w[1](e) : watchers.push(w);
    },
  });
  return {
    catalog,
    timers,
    events,
    configPath,
    stateDir,
    nextEvent: (pred) =>
      deadlockGuard(new Promise((r) => watchers.push([pred, r])), "the expected event never came"),
    async close() {
      await catalog.close();
      if (!opts.root) await Deno.remove(root, { recursive: true });
    },
  };
}

const group = (r: ModelsResponse, id: string): ModelGroup => {
  const g = r.groups.find((x) => x.provider_id === id);
  ok(g, `group ${id} in ${JSON.stringify(r.groups.map((x) => x.provider_id))}`);
  return g;
};
const ids = (g: ModelGroup) => g.models.map((m) => m.id);
const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test("getModels() lands a live endpoint in-band behind a dead one, inside the budget", async () => {
  const dead = new FakeEndpoint("hang");
  const live = new FakeEndpoint("answer", ["alpha", "beta"]);
  const f = await fixture(
    `model: {provider: custom, base_url: "${dead.url}", default: my-model}\n` +
      `custom_providers:\n  - {name: live, base_url: "${live.url}"}\n`,
  );
  try {
    const pending = f.catalog.getModels();
    await dead.waitForRequests(1);
    // The dead endpoint got a fair slice of the caller's 4 s window, not the 5 s cap.
    deepStrictEqual(f.timers.pending(), [4000 / 2.1, 4000]);
    f.timers.advance(4000 / 2.1);
    const first = await pending;
    ok(f.timers.now() < 4000, "answered before the deadline");
    strictEqual(first.source, "partial");
    strictEqual(first.refreshing, true);
    // The partial catalog is never cached, in memory or on disk.
    strictEqual(f.catalog.state().published, null);
    strictEqual(await exists(f.catalog.cachePath), false);
    deepStrictEqual(ids(group(first, "custom:live")), ["alpha", "beta"]);
    const cut = group(first, "custom");
    strictEqual(cut.pending, true);
    strictEqual(cut.unreachable, undefined);
    deepStrictEqual(ids(cut), ["my-model"]);
    strictEqual(first.active_provider, "custom");
    strictEqual(first.default_model, "my-model");

    // Out-of-band: the truncated endpoint is retried once at the full cap.
    await dead.waitForRequests(2);
    deepStrictEqual(f.timers.pending(), [5000]);
    f.timers.advance(5000);
    await f.catalog.settled();
    const second = await f.catalog.getModels();
    strictEqual(second.source, "live");
    strictEqual(group(second, "custom").unreachable, true);
    strictEqual(group(second, "custom").error, "No answer within 5 s");
    deepStrictEqual(ids(group(second, "custom:live")), ["alpha", "beta"]);
    strictEqual(live.requests.length, 1, "the successful probe was kept, not repeated");
    strictEqual(dead.requests.length, 2);
    const disk = JSON.parse(await Deno.readTextFile(f.catalog.cachePath));
    deepStrictEqual(disk.groups.map((g: ModelGroup) => g.provider_id), ["custom", "custom:live"]);
  } finally {
    await f.close();
    await dead.close();
    await live.close();
  }
});

Deno.test("getModels() serves the fallback past the deadline; the rebuild lands out-of-band", async (t) => {
  const slow = new FakeEndpoint("gated", ["qwen3:8b", "llama3.1:8b"]);
  const yaml = `model: {provider: custom, base_url: "${slow.url}", default: my-model}\n`;
  const root = await Deno.makeTempDir({ prefix: "hermes-models-" });
  try {
    await t.step("no cache yet: the static catalog, while the rebuild continues", async () => {
      const f = await fixture(yaml, { root });
      try {
        const pending = f.catalog.getModels();
        await slow.waitForRequests(1);
        // One jump past the deadline: the caller's timer fires before the probe's abort is seen.
        f.timers.advance(4000);
        const fallback = await pending;
        strictEqual(fallback.source, "static");
        strictEqual(fallback.refreshing, true);
        deepStrictEqual(ids(group(fallback, "custom")), ["my-model"]);
        strictEqual(await exists(f.catalog.cachePath), false);

        await slow.waitForRequests(2);
        deepStrictEqual(f.timers.pending(), [5000], "the retry runs at the full cap");
        const landed = f.nextEvent((e) => e.outcome === "committed");
        slow.open();
        deepStrictEqual(await landed, { generation: 1, outcome: "committed", outOfBand: true });
        const next = await f.catalog.getModels();
        strictEqual(next.source, "live");
        deepStrictEqual(ids(group(next, "custom")), ["my-model", "qwen3:8b", "llama3.1:8b"]);
        strictEqual(group(next, "custom").models[1].context_window, 40_960);
        strictEqual(slow.requests.length, 2, "served from memory, no new probe");
      } finally {
        await f.close();
      }
    });
    await t.step(
      "after a restart, an expired cache is served at once and refreshed behind",
      async () => {
        const f = await fixture(yaml, { root, start: 10 * 86_400_000 });
        try {
          slow.mode = "hang";
          const stale = await f.catalog.getModels();
          strictEqual(stale.source, "cache");
          strictEqual(stale.refreshing, true);
          deepStrictEqual(ids(group(stale, "custom")), ["my-model", "qwen3:8b", "llama3.1:8b"]);
          await slow.waitForRequests(3);
          deepStrictEqual(f.timers.pending(), [5000], "nobody waits: the refresh has the full cap");
          const published = f.nextEvent((e) => e.outcome === "published");
          f.timers.advance(5000);
          await published;
          strictEqual(group(await f.catalog.getModels(), "custom").unreachable, true);
        } finally {
          await f.close();
        }
      },
    );
    await t.step("a cache from other sources is only the past-deadline fallback", async () => {
      await Deno.writeTextFile(join(root, "config.yaml"), yaml + "# edited\n");
      const f = await fixture(yaml + "# edited\n", { root });
      try {
        const pending = f.catalog.getModels();
        await slow.waitForRequests(4);
        f.timers.advance(4000);
        const fallback = await pending;
        strictEqual(fallback.source, "cache");
        strictEqual(fallback.refreshing, true);
        strictEqual(
          group(fallback, "custom").unreachable,
          true,
          "the last-known catalog, as it was",
        );
      } finally {
        await f.close();
      }
    });
  } finally {
    await slow.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("getModels() serves a fresh durable cache after a restart without probing", async () => {
  const live = new FakeEndpoint("answer", ["m1"]);
  const root = await Deno.makeTempDir({ prefix: "hermes-models-" });
  const yaml = `model: {provider: custom, base_url: "${live.url}"}\n`;
  try {
    const a = await fixture(yaml, { root });
    strictEqual((await a.catalog.getModels()).source, "live");
    await a.catalog.settled();
    await a.close();
    const b = await fixture(yaml, { root, start: 1000 });
    const r = await b.catalog.getModels();
    strictEqual(r.source, "cache");
    deepStrictEqual(ids(group(r, "custom")), ["m1"]);
    strictEqual(live.requests.length, 1);
    await b.close();
  } finally {
    await live.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("invalidate() during a rebuild drops its result, even when no new build starts", async () => {
  const slow = new FakeEndpoint("gated", ["stale-model"]);
  const f = await fixture(`model: {provider: custom, base_url: "${slow.url}"}\n`);
  try {
    const pending = f.catalog.getModels();
    await slow.waitForRequests(1);
    f.timers.advance(4000);
    strictEqual((await pending).source, "static");
    await slow.waitForRequests(2);
    await f.catalog.invalidate("custom");
    const dropped = f.nextEvent((e) => e.outcome === "dropped");
    slow.open();
    deepStrictEqual(await dropped, {
      generation: 1,
      outcome: "dropped",
      reason: "superseded",
      outOfBand: true,
    });
    await f.catalog.settled();
    strictEqual(f.catalog.state().published, null);
    strictEqual(f.catalog.state().building, false);
    strictEqual(await exists(f.catalog.cachePath), false);
    deepStrictEqual(f.events.filter((e) => e.outcome !== "dropped"), []);
    // The next caller rebuilds under a new generation.
    const fresh = await f.catalog.getModels();
    strictEqual(fresh.source, "live");
    strictEqual(f.catalog.state().published, 3);
    strictEqual(slow.requests.length, 3);
  } finally {
    await f.close();
    await slow.close();
  }
});

Deno.test("a superseded build leaves the newer build's in-progress flag alone", async () => {
  const a = new FakeEndpoint("gated", ["old"]);
  const f = await fixture(`model: {provider: custom, base_url: "${a.url}"}\n`);
  try {
    const first = f.catalog.getModels();
    await a.waitForRequests(1);
    f.timers.advance(4000);
    await first; // build 1 continues out-of-band
    await a.waitForRequests(2);
    await f.catalog.invalidate(); // generation 2
    const second = f.catalog.getModels(); // build 3
    await a.waitForRequests(3);
    f.timers.advance(4000);
    await second;
    await a.waitForRequests(4);
    strictEqual(f.catalog.state().building, true);
    // Both builds get their answer; only build 3 may publish, and build 1 must not free its slot.
    const dropped = f.nextEvent((e) => e.generation === 1);
    const committed = f.nextEvent((e) => e.generation === 3 && e.outcome === "committed");
    a.models = ["new"];
    a.open();
    deepStrictEqual(await dropped, {
      generation: 1,
      outcome: "dropped",
      reason: "superseded",
      outOfBand: true,
    });
    await committed;
    await f.catalog.settled();
    strictEqual(f.catalog.state().published, 3);
    strictEqual(f.catalog.state().building, false);
    const disk = JSON.parse(await Deno.readTextFile(f.catalog.cachePath));
    strictEqual(disk.generation, 3);
  } finally {
    await f.close();
    await a.close();
  }
});

Deno.test("a build whose config changed while it ran is dropped; an unreadable identity fails closed", async (t) => {
  for (const change of ["edit", "unreadable"] as const) {
    await t.step(change, async () => {
      const slow = new FakeEndpoint("gated", ["m"]);
      const f = await fixture(`model: {provider: custom, base_url: "${slow.url}"}\n`);
      try {
        const pending = f.catalog.getModels();
        await slow.waitForRequests(1);
        f.timers.advance(4000);
        await pending;
        await slow.waitForRequests(2);
        if (change === "edit") {
          await Deno.writeTextFile(f.configPath, "# edited\n", { append: true });
        } else {
          await Deno.remove(f.configPath);
          await Deno.mkdir(f.configPath);
        }
        const dropped = f.nextEvent((e) => e.outcome === "dropped");
        slow.open();
        deepStrictEqual(await dropped, {
          generation: 1,
          outcome: "dropped",
          reason: "source changed",
          outOfBand: true,
        });
        await f.catalog.settled();
        strictEqual(f.catalog.state().published, null);
        strictEqual(await exists(f.catalog.cachePath), false);
      } finally {
        await f.close();
        await slow.close();
      }
    });
  }
});

Deno.test("a cold load's deferred commit and an invalidation holding the commit lock do not deadlock", async () => {
  const slow = new FakeEndpoint("gated", ["m"]);
  const f = await fixture(`model: {provider: custom, base_url: "${slow.url}"}\n`, {
    budgetSeconds: 0,
  });
  try {
    const load = f.catalog.getModels(); // unbounded: holds the catalog lock while it waits
    await slow.waitForRequests(1);
    deepStrictEqual(
      f.timers.pending(),
      [5000],
      "budget 0: no caller deadline, the probe has its cap",
    );
    const invalidation = f.catalog.invalidate(); // takes the commit lock, queues on the catalog lock
    slow.open();
    const [loaded] = await deadlockGuard(Promise.all([load, invalidation]));
    strictEqual(loaded.source, "live");
    await f.catalog.settled();
    // The invalidation ran after the in-memory publication: it wins, and the queued commit
    // re-checked the generation and threw its temp file away.
    strictEqual(f.catalog.state().published, null);
    strictEqual(await exists(f.catalog.cachePath), false);
    const leftovers = [...Deno.readDirSync(f.stateDir)].map((e) => e.name);
    deepStrictEqual(leftovers, []);
    deepStrictEqual(f.events.map((e) => e.outcome), ["published", "dropped"]);
  } finally {
    await f.close();
    await slow.close();
  }
});

Deno.test("getModels() with budget 0 waits without bound, each probe at its full cap", async () => {
  const slow = new FakeEndpoint("gated", ["m"]);
  const f = await fixture(`model: {provider: custom, base_url: "${slow.url}"}\n`, {
    budgetSeconds: 0,
    env: { CUSTOM_MODELS_ENDPOINT_TIMEOUT_SECONDS: "30" },
  });
  try {
    let answered = false;
    const load = f.catalog.getModels().then((r) => (answered = true, r));
    await slow.waitForRequests(1);
    deepStrictEqual(f.timers.pending(), [30_000], "no caller deadline; the configured cap");
    f.timers.advance(29_000);
    await new Promise((r) => setTimeout(r, 20));
    strictEqual(answered, false, "still waiting, past any default budget");
    slow.open();
    strictEqual((await load).source, "live");
  } finally {
    await f.close();
    await slow.close();
  }
});

Deno.test("getModels() probes each URL + credential once per rebuild", async () => {
  const shared = new FakeEndpoint("answer", ["shared-model"]);
  const f = await fixture(
    `model: {provider: custom, base_url: "${shared.url}"}\n` +
      `providers: {lmstudio: {base_url: "${shared.url}"}}\n` +
      `custom_providers:\n` +
      `  - {name: one, base_url: "${shared.url}"}\n` +
      `  - {name: two, base_url: "${shared.url}"}\n` +
      `  - {name: keyed, base_url: "${shared.url}", api_key: sk-other}\n`,
  );
  try {
    const r = await f.catalog.getModels();
    strictEqual(r.source, "live");
    for (const id of ["custom", "lmstudio", "custom:one", "custom:two", "custom:keyed"]) {
      deepStrictEqual(ids(group(r, id)), ["shared-model"]);
    }
    deepStrictEqual(shared.requests, [
      { path: "/v1/models", auth: null },
      { path: "/v1/models", auth: "Bearer sk-other" },
    ]);
  } finally {
    await f.close();
    await shared.close();
  }
});

Deno.test("getModels() reports a refused endpoint as unreachable and keeps its configured models", async () => {
  const f = await fixture(
    `model: {provider: custom, base_url: "${refusedUrl()}", default: local-model}\n`,
  );
  try {
    const r = await f.catalog.getModels();
    const g = group(r, "custom");
    strictEqual(g.unreachable, true);
    ok(/connection refused/.test(g.error ?? ""), g.error);
    deepStrictEqual(ids(g), ["local-model"]);
  } finally {
    await f.close();
  }
});

Deno.test("getModels() probes private addresses only for endpoints the user configured", async () => {
  // Named in config.yaml: a loopback base_url is the user's own server, so it is probed (and
  // here found closed) rather than refused.
  const f = await fixture(`providers: {openai: {base_url: "${refusedUrl()}", api_key: sk-x}}\n`);
  try {
    const r = await f.catalog.getModels();
    ok(/Cannot reach .*connection refused/.test(group(r, "openai").error ?? ""));
  } finally {
    await f.close();
  }
  // Detected from OPENAI_API_KEY alone: its host resolving to a private address is refused
  // before any request is made.
  const root = await Deno.makeTempDir({ prefix: "hermes-models-" });
  const configPath = join(root, "config.yaml");
  const config = loadConfig({ HOME: root, HERMES_CONFIG_PATH: configPath, OPENAI_API_KEY: "sk-x" });
  const requested: string[] = [];
  const catalog = new ModelCatalog({
    getConfig: () => config,
    stateDir: join(root, "state"),
    timers: new ManualTimers(),
    io: {
      resolve: () => Promise.resolve(["10.0.0.7"]),
      fetch: ((
        u: string | URL,
      ) => (requested.push(String(u)), Promise.reject(new Error("no")))) as typeof fetch,
    },
  });
  try {
    const r = await catalog.getModels();
    ok(/private-network address/.test(group(r, "openai").error ?? ""), group(r, "openai").error);
    deepStrictEqual(requested, []);
    ok(group(r, "openai").models.some((m) => m.id === "gpt-4o"), "static models stay pickable");
  } finally {
    await catalog.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** A small deterministic PRNG (mulberry32) so a failing interleaving can be replayed. */
function prng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 60 interleavings in the default run, 200 in the slow lane (tests/fixtures/scale.ts).
const RACE_RUNS = scaled(60, 200);

Deno.test(`refreshes racing cold loads never deadlock and leave a consistent catalog (${RACE_RUNS} runs)`, async () => {
  const root = await Deno.makeTempDir({ prefix: "hermes-models-race-" });
  const configPath = join(root, "config.yaml");
  await Deno.writeTextFile(
    configPath,
    `model: {provider: custom, base_url: "http://10.9.0.1/v1"}\n` +
      `custom_providers:\n  - {name: b, base_url: "http://10.9.0.2/v1"}\n  - {name: c, base_url: "http://10.9.0.3/v1"}\n`,
  );
  const config = loadConfig({
    HOME: root,
    HERMES_CONFIG_PATH: configPath,
    HERMES_WEBUI_STATE_DIR: join(root, "s"),
  });
  const random = prng(7481);
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // Endpoints answer after 0-6 ms of real time; the budget and cap are tiny so every path
  // (in-band, partial, past-deadline, out-of-band retry, superseded) is taken along the way.
  const fakeFetch = (async (u: string | URL, init?: RequestInit) => {
    await new Promise<void>((resolve, reject) => {
      const h = setTimeout(resolve, Math.floor(random() * 7));
      init?.signal?.addEventListener("abort", () => (clearTimeout(h), reject(init.signal!.reason)));
    });
    return Response.json({ data: [{ id: `model-of-${new URL(String(u)).hostname}` }] });
  }) as typeof fetch;
  let budget = 0;
  // Every publication must carry the newest allocated generation at the moment it happens.
  const violations: string[] = [];
  const catalog: ModelCatalog = new ModelCatalog({
    getConfig: () => ({ ...config, modelsRebuildBudgetSeconds: budget }),
    stateDir: join(root, "s"),
    io: { fetch: fakeFetch },
    endpointCapSeconds: 0.02,
    onEvent: (e) => {
      const allocated = catalog.state().allocated;
      if (e.outcome !== "dropped" && e.generation !== allocated) {
        violations.push(`${e.outcome} generation ${e.generation} while ${allocated} was allocated`);
      }
    },
  });
  try {
    for (let run = 0; run < RACE_RUNS; run++) {
      budget = [0, 0.001, 0.004, 0.05][Math.floor(random() * 4)];
      const ops: Array<Promise<unknown>> = [];
      const n = 2 + Math.floor(random() * 4);
      for (let i = 0; i < n; i++) {
        const dice = random();
        if (dice < 0.4) ops.push(catalog.invalidate("custom"));
        else if (dice < 0.45) {
          ops.push(Deno.writeTextFile(configPath, `# ${run}\n`, { append: true }));
        } else ops.push(catalog.getModels());
        if (random() < 0.6) await pause(Math.floor(random() * 4));
      }
      await deadlockGuard(Promise.all(ops), `deadlock in run ${run}`);
      await deadlockGuard(catalog.settled(), `build still running after run ${run}`);
      const s = catalog.state();
      strictEqual(s.building, false, `run ${run}: slot released`);
      strictEqual(s.locked, false, `run ${run}: locks released`);
      ok(s.published === null || s.published <= s.allocated, `run ${run}: no future generation`);
      const temps = [...Deno.readDirSync(join(root, "s"))].filter((e) => e.name.endsWith(".tmp"));
      deepStrictEqual(temps, [], `run ${run}: no temp file left behind`);
      deepStrictEqual(violations, [], `run ${run}: fenced publications`);
      // Quiescent again: an invalidation empties everything, and an unbounded load fills both
      // memory and disk with the newest generation.
      await catalog.invalidate();
      strictEqual(catalog.state().published, null);
      strictEqual(
        await exists(catalog.cachePath),
        false,
        `run ${run}: invalidation deleted the cache`,
      );
      budget = 0;
      strictEqual((await catalog.getModels()).source, "live");
      const after = catalog.state();
      strictEqual(after.published, after.allocated);
      const onDisk = JSON.parse(await Deno.readTextFile(catalog.cachePath));
      strictEqual(onDisk.generation, after.allocated, `run ${run}: disk holds the newest catalog`);
    }
  } finally {
    await catalog.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("GET /api/models and POST /api/models/refresh", async () => {
  const live = new FakeEndpoint("answer", ["route-model"]);
  const app = await createTestApp({
    configYaml: `model: {provider: custom, base_url: "${live.url}", default: route-model}\n`,
  });
  try {
    const first = await app.call<ModelsResponse>("GET", "/api/models");
    strictEqual(first.status, 200);
    strictEqual(first.body.active_provider, "custom");
    strictEqual(first.body.default_model, "route-model");
    deepStrictEqual(first.body.groups[0].models.map((m) => m.id), ["route-model"]);
    strictEqual(first.body.groups[0].provider_id, "custom");
    await app.ctx.models.settled();
    ok(await exists(join(app.stateDir, "models_cache.json")));

    const refreshed = await app.call("POST", "/api/models/refresh", { provider: "custom" });
    deepStrictEqual(refreshed, { status: 200, body: { ok: true, provider: "custom" } });
    strictEqual(await exists(join(app.stateDir, "models_cache.json")), false);
    await app.call("GET", "/api/models");
    strictEqual(live.requests.length, 2, "the refresh made the next load re-probe");

    strictEqual((await app.call("POST", "/api/models/refresh", { provider: "nope" })).status, 404);
    strictEqual((await app.call("POST", "/api/models/refresh", { provider: 5 })).status, 400);
    // No provider is a 400 (API.md, the original); "all" refreshes every provider.
    const missing = await app.call("POST", "/api/models/refresh", {});
    strictEqual(missing.status, 400);
    ok(/provider/.test(String(missing.body.error)), JSON.stringify(missing.body));
    strictEqual((await app.call("POST", "/api/models/refresh", { provider: "all" })).status, 200);
  } finally {
    await app.close();
    await live.close();
  }
});
