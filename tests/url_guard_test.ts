import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import {
  BlockedUrlError,
  checkUrl,
  classifyAddress,
  guardedFetch,
  type HostResolver,
  parseIpv6,
} from "../lib/security/url_guard.ts";

const DNS: Record<string, string[]> = {
  "public.example": ["93.184.216.34"],
  "lan.example": ["192.168.1.20"],
  "meta-rebind.example": ["169.254.169.254"],
  "169.254.169.254.nip.io": ["169.254.169.254"],
  "mixed.example": ["93.184.216.34", "10.0.0.5"],
  "v6meta.example": ["fd00:ec2::254"],
  "mapped.example": ["::ffff:169.254.169.254"],
  "pinned.test": ["127.0.0.1"],
};
const resolve: HostResolver = (host) => {
  const hit = DNS[host];
  return hit
    ? Promise.resolve(hit)
    : Promise.reject(Object.assign(new Error("nx"), { code: "ENOTFOUND" }));
};

// [url, allowed for any endpoint, allowed for an endpoint the user configured]
const TABLE: Array<[string, boolean, boolean]> = [
  ["http://93.184.216.34/", true, true],
  ["https://public.example/v1/models", true, true],
  ["http://172.32.0.1/", true, true],
  ["http://[::ffff:8.8.8.8]/", true, true],
  ["https://[2606:4700:4700::1111]/", true, true],
  ["http://127.0.0.1:1234/v1", false, true],
  ["http://127.1/", false, true],
  ["http://localhost:11434/api/tags", false, true],
  ["http://models.localhost/", false, true],
  ["http://[::1]:8080/", false, true],
  ["http://[::ffff:127.0.0.1]/", false, true],
  ["http://10.1.2.3/", false, true],
  ["http://172.16.0.1/", false, true],
  ["http://172.31.255.255/", false, true],
  ["http://192.168.1.20/", false, true],
  ["http://lan.example:1234/v1", false, true],
  ["http://mixed.example/", false, true],
  ["http://100.64.0.1/", false, true],
  ["http://[fd12:3456::1]/", false, true],
  ["http://169.254.169.254/latest/meta-data/", false, false],
  ["http://169.254.1.1/", false, false],
  ["http://2852039166/", false, false],
  ["http://0xa9fea9fe/", false, false],
  ["http://0251.0376.0251.0376/", false, false],
  ["http://0xA9.0xFE.0xA9.0xFE/", false, false],
  ["http://169.254.43518/", false, false],
  ["http://[::ffff:a9fe:a9fe]/", false, false],
  ["http://[::ffff:169.254.169.254]/", false, false],
  ["http://[64:ff9b::a9fe:a9fe]/", false, false],
  ["http://[64:ff9b::169.254.169.254]/", false, false],
  ["http://[2002:a9fe:a9fe::1]/", false, false],
  ["http://[fe80::1]/", false, false],
  ["http://[fd00:ec2::254]/", false, false],
  ["http://0.0.0.0:8080/", false, false],
  ["http://0/", false, false],
  ["http://[::]/", false, false],
  ["http://224.0.0.1/", false, false],
  ["http://100.100.100.200/latest/meta-data/", false, false],
  ["http://meta-rebind.example/", false, false],
  ["http://169.254.169.254.nip.io/", false, false],
  ["http://v6meta.example/", false, false],
  ["http://mapped.example/", false, false],
  ["http://metadata.google.internal/computeMetadata/v1/", false, false],
  ["http://metadata/", false, false],
  ["file:///etc/passwd", false, false],
  ["ftp://public.example/", false, false],
  ["gopher://127.0.0.1:6379/_INFO", false, false],
  ["http://user:pass@public.example/", false, false],
  ["http://user@127.0.0.1/", false, false],
  ["not a url", false, false],
];

Deno.test("checkUrl() applies the SSRF table to public and user-configured endpoints", async () => {
  ok(TABLE.length >= 30);
  for (const [url, publicOk, privateOk] of TABLE) {
    for (const [allowPrivate, expected] of [[false, publicOk], [true, privateOk]] as const) {
      let allowed = true;
      try {
        await checkUrl(url, { allowPrivate, resolve });
      } catch (err) {
        ok(err instanceof BlockedUrlError, `${url}: unexpected ${err}`);
        if (url !== "not a url") ok(!/not a valid URL/.test(err.message), `${url}: ${err.message}`);
        allowed = false;
      }
      strictEqual(allowed, expected, `${url} with allowPrivate=${allowPrivate}`);
    }
  }
});

Deno.test("checkUrl() names the rule that refused a URL", async () => {
  await rejects(
    checkUrl("http://2852039166/", { allowPrivate: true }),
    /link-local\/metadata address \(169\.254\.169\.254\)/,
  );
  await rejects(
    checkUrl("http://10.0.0.1/"),
    /private-network address .*only endpoints you configure/,
  );
  await rejects(checkUrl("http://user:pw@public.example/", { resolve }), /credentials in URLs/);
});

Deno.test("checkUrl() rethrows a DNS failure instead of calling it a refusal", async () => {
  await rejects(checkUrl("http://nx.example/", { resolve }), (err: Error) => {
    ok(!(err instanceof BlockedUrlError));
    return true;
  });
});

Deno.test("classifyAddress() judges IPv6 forms by the IPv4 address they embed", () => {
  strictEqual(classifyAddress("::ffff:10.0.0.1").cls, "private");
  strictEqual(classifyAddress("64:ff9b::808:808").cls, "public");
  strictEqual(classifyAddress("64:ff9b:1::a9fe:a9fe").cls, "blocked");
  strictEqual(classifyAddress("fe80::1%eth0").cls, "blocked");
  strictEqual(classifyAddress("nonsense").cls, "blocked");
  deepStrictEqual(parseIpv6("1::"), [0, 1, ...Array(14).fill(0)]);
  strictEqual(parseIpv6("1:2:3:4:5:6:7:8:9"), null);
  strictEqual(parseIpv6("1::2::3"), null);
});

/** A fake fetch answering from a table of URL → Response factories, recording each request. */
function fakeFetch(routes: Record<string, (req: Request) => Response>) {
  const seen: Request[] = [];
  const f = ((input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(req);
    const route = routes[req.url];
    return Promise.resolve(route ? route(req) : new Response("missing", { status: 404 }));
  }) as typeof fetch;
  return { f, seen };
}

const redirect = (to: string, status = 302) => () =>
  new Response(null, { status, headers: { location: to } });

Deno.test("guardedFetch() re-checks every redirect hop", async (t) => {
  await t.step(
    "a redirect to a metadata address is refused, even for a configured endpoint",
    async () => {
      const { f, seen } = fakeFetch({ "http://lan.example/": redirect("http://169.254.169.254/") });
      await rejects(
        guardedFetch("http://lan.example/", {}, { allowPrivate: true, resolve, fetch: f }),
        BlockedUrlError,
      );
      strictEqual(seen.length, 1);
    },
  );
  await t.step("a public URL redirecting to loopback is refused", async () => {
    const { f, seen } = fakeFetch({
      "http://public.example/go": redirect("http://127.0.0.1:9/admin"),
    });
    await rejects(guardedFetch("http://public.example/go", {}, { resolve, fetch: f }), /loopback/);
    strictEqual(seen.length, 1);
  });
  await t.step("more than 5 redirects are refused", async () => {
    const { f, seen } = fakeFetch({ "http://public.example/loop": redirect("/loop", 307) });
    await rejects(
      guardedFetch("http://public.example/loop", {}, { resolve, fetch: f }),
      /more than 5 redirects/,
    );
    strictEqual(seen.length, 6);
  });
  await t.step("credentials survive same-origin hops and are dropped across origins", async () => {
    const { f, seen } = fakeFetch({
      "http://public.example/a": redirect("/b"),
      "http://public.example/b": redirect("http://93.184.216.34/c"),
      "http://93.184.216.34/c": () => new Response("done"),
    });
    const res = await guardedFetch("http://public.example/a", {
      headers: { authorization: "Bearer k", "x-api-key": "k2", accept: "text/plain" },
    }, { resolve, fetch: f });
    strictEqual(await res.text(), "done");
    deepStrictEqual(seen.map((r) => r.headers.get("authorization")), [
      "Bearer k",
      "Bearer k",
      null,
    ]);
    strictEqual(seen[2].headers.get("x-api-key"), null);
    strictEqual(seen[2].headers.get("accept"), "text/plain");
  });
  await t.step("a 303 after POST continues as a GET without the body", async () => {
    const { f, seen } = fakeFetch({
      "http://public.example/form": redirect("/result", 303),
      "http://public.example/result": (req) => new Response(req.method),
    });
    const res = await guardedFetch("http://public.example/form", { method: "POST", body: "x=1" }, {
      resolve,
      fetch: f,
    });
    strictEqual(await res.text(), "GET");
    strictEqual(seen[1].body, null);
  });
});

Deno.test("guardedFetch() pins a plain-http hostname to the address it checked", async () => {
  const hosts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    hosts.push(req.headers.get("host") ?? "");
    const url = new URL(req.url);
    if (url.pathname === "/start") {
      return Response.redirect(`http://pinned.test:${url.port}/end`, 302);
    }
    return new Response("pinned body");
  });
  try {
    const port = (server.addr as Deno.NetAddr).port;
    // "pinned.test" does not exist in real DNS: only the pinned connection can reach the server.
    const res = await guardedFetch(`http://pinned.test:${port}/start`, {}, {
      allowPrivate: true,
      resolve,
    });
    strictEqual(res.status, 200);
    strictEqual(await res.text(), "pinned body");
    deepStrictEqual(hosts, [`pinned.test:${port}`, `pinned.test:${port}`]);
    await rejects(guardedFetch(`http://pinned.test:${port}/start`, {}, { resolve }), /loopback/);
  } finally {
    await server.shutdown();
  }
});
