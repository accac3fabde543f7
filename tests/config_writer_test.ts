import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { parseDocument } from "yaml";
import {
  detachAliases,
  setMasked,
  updateConfigDocument,
  YAML_OPTIONS,
} from "../lib/settings/config_writer.ts";
import { ValidationError } from "../lib/errors.ts";
import { maskSecret } from "../lib/security/secrets.ts";
import { TEMPLATED_CONFIG } from "./fixtures/templated_config.ts";

async function tempConfig(text?: string): Promise<{ path: string; cleanup(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "hermes-cw-" });
  const path = join(dir, "config.yaml");
  if (text !== undefined) await Deno.writeTextFile(path, text);
  return { path, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

function parse(text: string): Record<string, unknown> {
  return parseDocument(text, YAML_OPTIONS).toJS() as Record<string, unknown>;
}

Deno.test("updateConfigDocument() keeps comments, ${ENV} strings and unrelated keys", async () => {
  const cfg = await tempConfig(TEMPLATED_CONFIG);
  try {
    await updateConfigDocument(cfg.path, (doc) => {
      doc.setIn(["mcp_servers", "new"], doc.createNode({ url: "http://127.0.0.1:9/mcp" }));
    });
    const text = await Deno.readTextFile(cfg.path);
    match(text, /# Hermes config — written by hand/);
    match(text, /# keep me/);
    match(text, /GITHUB_TOKEN: \$\{GITHUB_TOKEN\}/);
    const value = parse(text);
    deepStrictEqual(value.model, { default: "gpt-4o" });
    deepStrictEqual((value.mcp_servers as Record<string, unknown>).new, {
      url: "http://127.0.0.1:9/mcp",
    });
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("detachAliases() lets one server change without touching its template or sibling", async () => {
  const cfg = await tempConfig(TEMPLATED_CONFIG);
  try {
    const before = parse(TEMPLATED_CONFIG);
    await updateConfigDocument(cfg.path, (doc) => {
      detachAliases(doc, ["mcp_servers", "github"]);
      doc.setIn(["mcp_servers", "github", "env", "GITHUB_TOKEN"], "literal");
      doc.setIn(["mcp_servers", "github", "command"], "bunx");
    });
    const after = parse(await Deno.readTextFile(cfg.path));
    const servers = after.mcp_servers as Record<string, Record<string, unknown>>;
    deepStrictEqual(servers.github, {
      command: "bunx",
      env: { GITHUB_TOKEN: "literal" },
      args: ["-y", "server-github"],
    });
    deepStrictEqual(servers.other, (before.mcp_servers as Record<string, unknown>).other);
    deepStrictEqual(after["x-templates"], before["x-templates"]);
    match(await Deno.readTextFile(cfg.path), /<<: \*node/);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("detachAliases() freezes aliases that point at the entry being edited or deleted", async () => {
  const cfg = await tempConfig(`mcp_servers:
  a: &a
    url: http://one/mcp
    headers: &h
      X-Key: \${KEY}
  b: *a
  c:
    url: http://three/mcp
    headers: *h
`);
  try {
    await updateConfigDocument(cfg.path, (doc) => {
      detachAliases(doc, ["mcp_servers", "a"]);
      doc.setIn(["mcp_servers", "a", "url"], "http://changed/mcp");
      doc.setIn(["mcp_servers", "a", "headers", "X-Key"], "other");
    });
    let servers = parse(await Deno.readTextFile(cfg.path)).mcp_servers as Record<
      string,
      unknown
    >;
    deepStrictEqual(servers.b, { url: "http://one/mcp", headers: { "X-Key": "${KEY}" } });
    deepStrictEqual(servers.c, { url: "http://three/mcp", headers: { "X-Key": "${KEY}" } });
    deepStrictEqual(servers.a, { url: "http://changed/mcp", headers: { "X-Key": "other" } });
    await updateConfigDocument(cfg.path, (doc) => {
      detachAliases(doc, ["mcp_servers", "b"]);
      doc.deleteIn(["mcp_servers", "b"]);
    });
    servers = parse(await Deno.readTextFile(cfg.path)).mcp_servers as Record<string, unknown>;
    deepStrictEqual(Object.keys(servers), ["a", "c"]);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("updateConfigDocument() refuses a malformed file and leaves it byte-for-byte intact", async () => {
  const broken = "mcp_servers:\n  a: {url: http://x\n  b: [\n# trailing\n";
  const cfg = await tempConfig(broken);
  try {
    let called = false;
    await rejects(
      updateConfigDocument(cfg.path, () => {
        called = true;
      }),
      (err: Error) => {
        ok(err instanceof ValidationError);
        ok(err.message.includes(cfg.path), err.message);
        match(err.message, /line \d+/);
        return true;
      },
    );
    strictEqual(called, false);
    strictEqual(await Deno.readTextFile(cfg.path), broken);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("updateConfigDocument() refuses a non-mapping document", async () => {
  const list = "- one\n- two\n";
  const cfg = await tempConfig(list);
  try {
    await rejects(updateConfigDocument(cfg.path, () => {}), /must be a YAML mapping/);
    strictEqual(await Deno.readTextFile(cfg.path), list);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("updateConfigDocument() initializes a missing or comment-only file", async () => {
  const missing = await tempConfig();
  const empty = await tempConfig("# nothing yet\n");
  try {
    for (const cfg of [missing, empty]) {
      await updateConfigDocument(cfg.path, (doc) => {
        doc.setIn(["mcp_servers", "x", "command"], "echo");
      });
      deepStrictEqual(parse(await Deno.readTextFile(cfg.path)), {
        mcp_servers: { x: { command: "echo" } },
      });
    }
    match(await Deno.readTextFile(empty.path), /# nothing yet/);
    strictEqual((await Deno.stat(missing.path)).mode! & 0o777, 0o600);
  } finally {
    await missing.cleanup();
    await empty.cleanup();
  }
});

Deno.test("updateConfigDocument() keeps the file mode and leaves no temp files", async () => {
  const cfg = await tempConfig("a: 1\n");
  try {
    await Deno.chmod(cfg.path, 0o640);
    await updateConfigDocument(cfg.path, (doc) => doc.set("b", 2));
    strictEqual((await Deno.stat(cfg.path)).mode! & 0o777, 0o640);
    const names = [];
    for await (const e of Deno.readDir(join(cfg.path, ".."))) names.push(e.name);
    deepStrictEqual(names, ["config.yaml"]);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("updateConfigDocument() writes nothing when mutate throws", async () => {
  const cfg = await tempConfig("a: 1 # keep\n");
  try {
    await rejects(
      updateConfigDocument(cfg.path, (doc) => {
        doc.set("a", 2);
        throw new ValidationError("nope");
      }),
      /nope/,
    );
    strictEqual(await Deno.readTextFile(cfg.path), "a: 1 # keep\n");
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("updateConfigDocument() never loses one of many concurrent edits", async () => {
  const cfg = await tempConfig("mcp_servers: {}\n");
  try {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        updateConfigDocument(cfg.path, async (doc) => {
          await new Promise((r) => setTimeout(r, i % 3));
          doc.setIn(["mcp_servers", `s${i}`], doc.createNode({ command: `c${i}` }));
        })),
    );
    const servers = parse(await Deno.readTextFile(cfg.path)).mcp_servers as Record<
      string,
      unknown
    >;
    strictEqual(Object.keys(servers).length, 30);
  } finally {
    await cfg.cleanup();
  }
});

Deno.test("setMasked() keeps the stored secret when the masked form comes back", async () => {
  const cfg = await tempConfig("s:\n  token: sk-live-1234567890abcd\n  ref: ${TOKEN}\n");
  try {
    const shown = maskSecret("sk-live-1234567890abcd");
    ok(!shown.includes("1234567890"));
    await updateConfigDocument(cfg.path, (doc) => {
      setMasked(doc, ["s", "token"], shown);
      setMasked(doc, ["s", "ref"], "${TOKEN}");
    });
    strictEqual(
      await Deno.readTextFile(cfg.path),
      "s:\n  token: sk-live-1234567890abcd\n  ref: ${TOKEN}\n",
    );
    await updateConfigDocument(cfg.path, (doc) => setMasked(doc, ["s", "token"], "sk-new"));
    deepStrictEqual(parse(await Deno.readTextFile(cfg.path)).s, {
      token: "sk-new",
      ref: "${TOKEN}",
    });
  } finally {
    await cfg.cleanup();
  }
});
