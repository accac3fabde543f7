// The composer's busy-run modes without a DOM (lib/browser/composer/message_mode.ts through
// createComposerModel): steer posts the note (and queues it when the run is ending), queue
// keeps several messages in order, interrupt stops then sends, /queue /steer /interrupt set the
// mode, the `default_message_mode` prop picks the start, /background starts a task and lists it.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createComposerModel } from "../lib/browser/composer/composer_model.ts";

type Call = { method: string; path: string; body?: Record<string, unknown> };

const tick = () => new Promise((r) => setTimeout(r, 0));

function composer(routes: Record<string, (b: Record<string, unknown>) => unknown>, mode?: string) {
  const calls: Call[] = [];
  const m = createComposerModel(
    // deno-lint-ignore no-explicit-any
    { sessionId: "s1", activeStreamId: "r0", messageMode: mode as any },
    {
      api: async <T>(method: string, path: string, body?: unknown) => {
        calls.push({ method, path, body: body as Record<string, unknown> });
        const route = routes[`${method} ${path.split("?")[0]}`];
        if (!route) throw new Error(`unexpected ${method} ${path}`);
        return await route((body ?? {}) as Record<string, unknown>) as T;
      },
      navigate: () => {},
      readDraft: () => "",
      writeDraft: () => {},
      pollMs: 60_000,
      flashMs: 60_000,
      draftSaveMs: 0,
    },
  );
  return { m, calls };
}

Deno.test("steer mode posts the note to the running agent; a refused note is queued", async () => {
  let accept = true;
  const { m, calls } = composer({
    "POST /api/chat/steer": () => ({ accepted: accept, ...(accept ? {} : { fallback: "x" }) }),
  }, "steer");
  strictEqual(m.modes.mode.value, "steer", "default_message_mode picks the start");
  m.input("Use tabs");
  await m.submit();
  deepStrictEqual(calls[0], {
    method: "POST",
    path: "/api/chat/steer",
    body: { session_id: "s1", stream_id: "r0", text: "Use tabs" },
  });
  strictEqual(m.draft.value, "");
  strictEqual(m.flash.value, "Sent to the running agent");
  strictEqual(m.queued.value, null);
  accept = false;
  m.input("Too late");
  await m.submit();
  strictEqual(m.queued.peek()?.text, "Too late", "the run was ending: the note waits instead");
});

Deno.test("queue mode keeps several messages in order; interrupt stops, then sends", async () => {
  const { m, calls } = composer({
    "GET /api/chat/cancel": () => ({ ok: true, cancelled: true }),
    "POST /api/chat/start": (b) => ({
      stream_id: `r-${b.message}`,
      session_id: "s1",
      turn_id: "t",
      title: "x",
    }),
  });
  strictEqual(m.modes.mode.value, "queue", "queue without a setting");
  for (const t of ["one", "two", "three"]) {
    m.input(t);
    await m.submit();
  }
  deepStrictEqual(m.modes.all.value.map((q) => q.text), ["one", "two", "three"]);
  m.takeBackAt(1);
  strictEqual(m.draft.value, "two");
  deepStrictEqual(m.modes.all.value.map((q) => q.text), ["one", "three"]);
  m.removeQueued(0);
  deepStrictEqual(m.modes.all.value.map((q) => q.text), ["three"]);

  await m.runCommand(
    (await import("../lib/browser/slash_commands.ts")).SLASH_COMMANDS.find((c) =>
      c.name === "interrupt"
    )!,
    "",
  );
  strictEqual(m.modes.mode.value, "interrupt");
  m.input("now");
  await m.submit();
  for (let i = 0; i < 5; i++) await tick();
  deepStrictEqual(calls.map((c) => c.path.split("?")[0]).slice(0, 2), [
    "/api/chat/cancel",
    "/api/chat/start",
  ]);
  strictEqual(calls[1].body?.message, "now");
});

Deno.test("/background starts a task and lists it; /btw needs a question", async () => {
  const { m, calls } = composer({
    "POST /api/background": () => ({ task_id: "t1", stream_id: "b1", session_id: "c1" }),
    "GET /api/background/status": () => ({
      tasks: [{ task_id: "t1", prompt: "audit", status: "running", answer: null }],
    }),
  });
  m.input("/background audit");
  await m.submit();
  deepStrictEqual(calls[0].body, { session_id: "s1", prompt: "audit" });
  deepStrictEqual(m.side.tasks.value.map((t) => [t.task_id, t.status]), [["t1", "running"]]);
  m.side.dismissBtw();
  m.input("/btw");
  await m.submit();
  strictEqual(
    m.error.value,
    "/btw needs <question>: Ask on the side; the chat stays as is. Usage: /btw <question>",
  );
  strictEqual(calls.length, 2, "nothing was asked");
});
