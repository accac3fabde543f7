// The composer's `/title` (no text: the model titles the chat), `/reasoning <level>` and
// `/compress <focus>`: the API call each makes and what the person sees.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { signal } from "@preact/signals";
import { runSlashCommand } from "../lib/browser/composer/composer_commands.ts";
import type { CommandHost } from "../lib/browser/composer/composer_commands.ts";
import { findCommand } from "../lib/browser/slash_commands.ts";

function fakeHost(answers: Record<string, (body: unknown) => unknown>, sid: string | null = "s1") {
  const calls: Array<{ route: string; body: unknown }> = [];
  const flashes: string[] = [];
  const titles: string[] = [];
  const started: unknown[] = [];
  const host = {
    sid: signal(sid),
    sessionId: sid,
    projectId: null,
    panel: signal(null),
    deps: {
      api: (method: string, path: string, body?: unknown) => {
        const route = `${method} ${path.split("?")[0]}`;
        calls.push({ route, body });
        return Promise.resolve(answers[route]?.(body) ?? {});
      },
      navigate() {},
      reload() {},
      setTitle: (t: string) => titles.push(t),
      writeDraft() {},
    },
    replaceDraft() {},
    showFlash: (t: string) => flashes.push(t),
    announceStart: (s: unknown) => started.push(s),
  } as unknown as CommandHost;
  return { host, calls, flashes, titles, started };
}

Deno.test("/title with no text asks the model for a title", async () => {
  const h = fakeHost({
    "POST /api/session/title/regenerate": () => ({ title: "Rainy haiku", status: "generated" }),
  });
  await runSlashCommand(h.host, findCommand("title")!, "");
  deepStrictEqual(h.calls.map((c) => [c.route, c.body]), [
    ["POST /api/session/title/regenerate", { session_id: "s1" }],
  ]);
  deepStrictEqual(h.titles, ["Rainy haiku · Hermes Console"]);
  strictEqual(h.flashes.at(-1), "Titled “Rainy haiku”");
  const none = fakeHost({
    "POST /api/session/title/regenerate": () => ({ title: "Old", status: "no_exchange" }),
  });
  await runSlashCommand(none.host, findCommand("title")!, "");
  deepStrictEqual(none.titles, []);
  strictEqual(none.flashes.at(-1), "A title needs a first answer");
});

Deno.test("/reasoning sets the chat's effort and refuses unknown levels", async () => {
  const h = fakeHost({
    "POST /api/session/reasoning": (b) => ({ reasoning_effort: (b as { effort: string }).effort }),
  });
  await runSlashCommand(h.host, findCommand("reasoning")!, "High");
  deepStrictEqual(h.calls[0], {
    route: "POST /api/session/reasoning",
    body: { session_id: "s1", effort: "high" },
  });
  strictEqual(h.flashes.at(-1), "Reasoning: high");
  await rejects(() => runSlashCommand(h.host, findCommand("reasoning")!, "extreme"), /one of/);
  const fresh = fakeHost({}, null);
  await rejects(
    () => runSlashCommand(fresh.host, findCommand("reasoning")!, "low"),
    /works in a chat/,
  );
});

Deno.test("/compress <focus> sends the focus and stays a streamed run", async () => {
  const start = { stream_id: "r1", session_id: "s1", turn_id: "t1", title: "Chat" };
  const h = fakeHost({ "POST /api/session/compress": () => start });
  await runSlashCommand(h.host, findCommand("compress")!, "the CSV parser");
  deepStrictEqual(h.calls[0].body, {
    session_id: "s1",
    focus_topic: "the CSV parser",
    sync: false,
  });
  deepStrictEqual(h.started, [start]);
  await runSlashCommand(h.host, findCommand("compress")!, "");
  deepStrictEqual(h.calls[1].body, { session_id: "s1" }, "no focus, as before");
});
