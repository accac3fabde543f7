// The Composer's model without a DOM: sending (and creating the session on first need), the
// queued message, attachments, run-state transitions, slash commands and the menu, the per-chat
// switches and the send key. The browser around it (API, uploads, navigation, drafts) is a
// recording stand-in; the same flows run against the real app in tests/e2e/composer_e2e_test.ts.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import {
  type ComposerInit,
  type ComposerModel,
  createComposerModel,
} from "../lib/browser/composer/composer_model.ts";
import { MAX_ATTACHMENTS } from "../lib/browser/composer_state.ts";
import { emitHermesEvent, type HermesEvents, onHermesEvent } from "../lib/shared/ui_events.ts";

type Handler = (body: Record<string, unknown>, path: string) => unknown;

interface Harness {
  m: ComposerModel;
  calls: Array<{ method: string; path: string; body?: Record<string, unknown> }>;
  navigations: string[];
  titles: string[];
  drafts: Map<string, string>;
  started: Array<HermesEvents["hermes:chat-started"]>;
}

const SESSION = { session_id: "s1", workspace: "/home/ada/app", model: "m1", model_provider: null };
const START = { stream_id: "r1", session_id: "s1", turn_id: "t1", title: "Chat" };

/** A connected model over a scripted API (`"POST /api/chat/start"` → handler). */
async function withComposer(
  init: Partial<ComposerInit>,
  routes: Record<string, Handler>,
  fn: (h: Harness) => Promise<void> | void,
  // pollMs: the run-status safety net's period. It is a real clock, so it stays far beyond any
  // test unless a test is about the poll: a tick mid-test adds a GET to `calls` (the /model flake).
  opts: { failUpload?: string; savedDraft?: string; pollMs?: number } = {},
) {
  const h: Harness = {
    calls: [],
    navigations: [],
    titles: [],
    drafts: new Map(),
    started: [],
  } as unknown as Harness;
  if (opts.savedDraft) h.drafts.set(String(init.sessionId ?? null), opts.savedDraft);
  const m = createComposerModel({ sessionId: null, home: "/home/ada", ...init }, {
    api: async <T>(method: string, path: string, body?: unknown) => {
      h.calls.push({ method, path, body: body as Record<string, unknown> });
      const route = routes[`${method} ${path.split("?")[0]}`];
      if (!route) throw new Error(`unexpected ${method} ${path}`);
      return await route((body ?? {}) as Record<string, unknown>, path) as T;
    },
    upload: (sessionId, file) =>
      opts.failUpload ? Promise.reject(new Error(opts.failUpload)) : Promise.resolve({
        filename: file.name,
        path: `/uploads/${sessionId}/${file.name}`,
        size: file.size,
        mime: file.type,
        is_image: false,
      }),
    loadArgChoices: (source) =>
      Promise.resolve(
        source === "models"
          ? [{ value: "gpt-x", provider_id: "openai" }, { value: "local-y" }]
          : [],
      ),
    navigate: (url) => h.navigations.push(url),
    reload: () => h.navigations.push("reload"),
    setTitle: (t) => h.titles.push(t),
    readDraft: (id) => h.drafts.get(String(id)) ?? "",
    writeDraft: (id, text) =>
      text.trim() ? h.drafts.set(String(id), text) : h.drafts.delete(String(id)),
    objectUrl: { create: () => "blob:thumb", revoke: () => {} },
    platform: () => "Linux x86_64",
    pollMs: opts.pollMs ?? 3_600_000,
    flashMs: 60_000,
    draftSaveMs: 0,
  });
  h.m = m;
  const offStarted = onHermesEvent("hermes:chat-started", (d) => h.started.push(d));
  const disconnect = m.connect();
  try {
    await fn(h);
  } finally {
    disconnect();
    offStarted();
    await tick(3);
  }
}

/** Let pending promise callbacks and zero-delay timers run. */
async function tick(n = 5) {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Wait (event-loop turns, never a clock) until `cond` holds. */
async function until(cond: () => boolean, what: string | (() => string)) {
  // Generous: a first use loads modules (dynamic imports), which under a loaded machine takes
  // far more turns than the steps themselves. A bound for failing, not a speed to assert.
  for (let i = 0; i < 5_000; i++) {
    if (cond()) return;
    await tick(1);
  }
  throw new Error(`never happened: ${typeof what === "string" ? what : what()}`);
}

const key = (
  k: string,
  mods: Partial<Record<"shiftKey" | "ctrlKey" | "metaKey", boolean>> = {},
) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

Deno.test("submit() creates the session on first need, starts the run and announces it", async () => {
  await withComposer({}, {
    "POST /api/session/new": () => ({ session: SESSION }),
    "POST /api/chat/start": () => START,
  }, async ({ m, calls, navigations, started }) => {
    strictEqual(m.phase.value, "idle");
    m.input("  hello there ");
    assert(m.canSend.value);
    await m.submit();
    assertEquals(calls.map((c) => c.path), ["/api/session/new", "/api/chat/start"]);
    assertEquals(calls[1].body, { session_id: "s1", message: "hello there" });
    strictEqual(m.sid.value, "s1");
    strictEqual(m.draft.value, "");
    strictEqual(m.run.value, "r1");
    strictEqual(m.phase.value, "running");
    strictEqual(m.workspaceLabel.value, "~/app");
    strictEqual(started[0].message, "hello there");
    // No live transcript took the run over: the page goes to the session.
    assertEquals(navigations, ["/?session=s1"]);
  });
});

Deno.test("submit() gives the message back with the server's sentence when the start fails", async () => {
  await withComposer({ sessionId: "s1" }, {
    "POST /api/chat/start": () => {
      throw new Error("The model is not configured");
    },
  }, async ({ m }) => {
    m.input("try me");
    await m.submit();
    strictEqual(m.error.value, "The model is not configured");
    strictEqual(m.draft.value, "try me");
    strictEqual(m.run.value, null);
    strictEqual(m.sending.value, false);
    m.input("try me again");
    strictEqual(m.error.value, null, "typing clears the error");
  });
});

Deno.test("a message sent during a run is queued, can be taken back, and goes when the run ends", async () => {
  await withComposer({ sessionId: "s1", activeStreamId: "r0" }, {
    "POST /api/chat/start": (body) => ({ ...START, stream_id: `r-${body.message}` }),
  }, async ({ m, calls }) => {
    strictEqual(m.phase.value, "running");
    m.input("first draft");
    await m.submit();
    assertEquals(m.queued.value?.text, "first draft");
    strictEqual(m.draft.value, "");
    // Several messages may wait (issue 14: the queue mode); each can be removed.
    m.input("another");
    await m.submit();
    assertEquals(m.modes.all.value.map((q) => q.text), ["first draft", "another"]);
    m.removeQueued(1);
    assertEquals(m.modes.all.value.map((q) => q.text), ["first draft"]);
    m.input("another");

    // Taking it back keeps the draft in progress; with an empty draft the queued text returns.
    m.takeBackQueued();
    strictEqual(m.queued.value, null);
    strictEqual(m.draft.value, "another");
    m.input("");
    await m.submit();
    strictEqual(m.queued.value, null, "an empty draft queues nothing");
    m.input("edited message");
    await m.submit();
    assertEquals(m.queued.peek()?.text, "edited message");
    strictEqual(calls.length, 0, "nothing is sent while the run is active");

    // Another session's run ending changes nothing; ours sends the queued message.
    emitHermesEvent("hermes:run-state", { session_id: "other", stream_id: "r0", active: false });
    strictEqual(m.run.value, "r0");
    emitHermesEvent("hermes:run-state", { session_id: "s1", stream_id: "r0", active: false });
    await until(() => m.run.value === "r-edited message", "the queued message was sent");
    strictEqual(m.queued.value, null);
    assertEquals(calls.map((c) => c.body?.message), ["edited message"]);
  });
});

Deno.test("run state follows run-state and chat-ended events, the status poll, and Stop", async () => {
  let active = true;
  await withComposer({ sessionId: "s1" }, {
    "GET /api/chat/stream/status": () => ({ active }),
    "GET /api/chat/cancel": () => ({ ok: true }),
  }, async ({ m, calls }) => {
    emitHermesEvent("hermes:run-state", { session_id: "s1", stream_id: "a", active: true });
    strictEqual(m.run.value, "a");
    emitHermesEvent("hermes:chat-ended", { session_id: "s1", stream_id: "zzz" } as never);
    strictEqual(m.run.value, "a", "another run's end is ignored");
    emitHermesEvent("hermes:chat-ended", { session_id: "s1", stream_id: "a" } as never);
    strictEqual(m.run.value, null);

    // Without a transcript, the poll notices the run ended.
    emitHermesEvent("hermes:run-state", { session_id: "s1", stream_id: "b", active: true });
    await until(() => calls.some((c) => c.path.includes("stream_id=b")), "the run was polled");
    strictEqual(m.run.value, "b");
    active = false;
    await until(() => m.run.value === null, "the poll ended the run");

    emitHermesEvent("hermes:run-state", { session_id: "s1", stream_id: "c", active: true });
    await m.stop();
    assert(calls.some((c) => c.path === "/api/chat/cancel?stream_id=c"));
    strictEqual(m.run.value, null);
    await m.stop();
    strictEqual(m.flash.value, "Nothing is running");
  }, { pollMs: 5 });
});

Deno.test("attachments upload at once, ride on the message, and a failed one blocks the send", async (t) => {
  await t.step("ready files are sent and leave the tray", async () => {
    await withComposer({ sessionId: "s1" }, {
      "POST /api/chat/start": () => START,
    }, async ({ m, calls }) => {
      m.addFiles([new File(["abc"], "notes.txt", { type: "text/plain" })]);
      strictEqual(m.attachments.value[0].status, "uploading");
      assert(m.uploading.value);
      await until(() => m.attachments.value[0].status === "ready", "the upload finished");
      assert(m.canSend.value, "files alone can be sent");
      await m.submit();
      assertEquals(calls[0].body?.attachments, [{
        filename: "notes.txt",
        path: "/uploads/s1/notes.txt",
        size: 3,
        mime: "text/plain",
        is_image: false,
      }]);
      assertEquals(m.attachments.value, []);
    });
  });
  await t.step("a failed upload shows on its chip and keeps the message", async () => {
    await withComposer({ sessionId: "s1" }, {}, async ({ m, calls }) => {
      m.addFiles([new File(["x"], "big.bin")]);
      await until(() => m.attachments.value[0].status === "error", "the upload failed");
      strictEqual(m.attachments.value[0].error, "File too large");
      m.input("with file");
      await m.submit();
      strictEqual(m.error.value, `"big.bin" could not be attached: File too large`);
      strictEqual(m.draft.value, "with file");
      strictEqual(m.attachments.value.length, 1);
      strictEqual(calls.length, 0);
      m.removeAttachment(m.attachments.value[0].id);
      assertEquals(m.attachments.value, []);
    }, { failUpload: "File too large" });
  });
  await t.step("the cap, and a long paste becoming a file", async () => {
    await withComposer({ sessionId: "s1" }, {}, async ({ m }) => {
      const files = Array.from({ length: MAX_ATTACHMENTS + 2 }, (_, i) => new File(["x"], `${i}`));
      m.addFiles(files);
      strictEqual(m.attachments.value.length, MAX_ATTACHMENTS);
      strictEqual(m.error.value, `At most ${MAX_ATTACHMENTS} attachments per message`);
      for (const a of m.attachments.value) m.removeAttachment(a.id);
      strictEqual(m.paste([], "short"), false, "a short paste is left to the textarea");
      strictEqual(m.paste([], "y".repeat(5000)), true);
      strictEqual(m.attachments.value[0].name, "pasted-text-1.txt");
      strictEqual(m.flash.value, "Long paste attached as pasted-text-1.txt");
      await until(() => !m.uploading.value, "the paste was uploaded");
    });
  });
});

Deno.test("the slash menu follows the draft; Tab completes, arrows move, Escape dismisses", async () => {
  await withComposer({ sessionId: "s1" }, {}, async ({ m }) => {
    strictEqual(m.menu.open.value, false);
    m.input("/");
    assert(m.menu.open.value);
    strictEqual(m.menu.items.value[0].key, "help");
    strictEqual(m.menu.active.value, 0);
    strictEqual(m.keyDown(key("ArrowDown")), "prevent");
    strictEqual(m.menu.active.value, 1);
    strictEqual(m.keyDown(key("ArrowUp")), "prevent");
    strictEqual(m.keyDown(key("ArrowUp")), "prevent");
    strictEqual(m.menu.active.value, m.menu.items.value.length - 1, "the highlight wraps");
    m.input("/ti");
    strictEqual(m.menu.active.value, 0, "a new query starts at the top");
    strictEqual(m.keyDown(key("Escape")), "prevent");
    strictEqual(m.menu.open.value, false);
    strictEqual(m.keyDown(key("Escape")), null, "nothing left to close");
    m.input("/tit");
    assert(m.menu.open.value, "editing opens it again");
    m.keyDown(key("Tab"));
    strictEqual(m.draft.value, "/title ");

    // An argument source loads once; a picked model carries its provider.
    m.input("/model gp");
    assert(m.menu.loading.value || m.menu.items.value.length > 0);
    await until(() => m.menu.items.value.length === 1, "the models loaded");
    strictEqual(m.menu.heading.value, "/model [id]");
    strictEqual(m.menu.items.value[0].label, "gpt-x");
  });
});

Deno.test("slash commands: /help, /title, /model, a chat-only command, and unknown ones", async () => {
  await withComposer({}, {
    "POST /api/session/new": () => ({ session: SESSION }),
    "POST /api/session/rename": (body) => ({ session: { title: body.title } }),
    "POST /api/session/update": (body) => ({ session: { ...SESSION, model: body.model } }),
    "POST /api/chat/start": (body) => ({ ...START, title: String(body.message) }),
  }, async ({ m, calls, titles }) => {
    m.input("/help");
    await m.submit();
    assertEquals(m.panel.value, { kind: "help" });
    strictEqual(m.draft.value, "");

    m.input("/clear");
    await m.submit();
    strictEqual(m.error.value, "/clear works in a chat: send a message first");
    strictEqual(calls.length, 0);

    // Before the chat exists a model choice is kept and given to the new session.
    await m.chooseModel("gpt-x", "openai");
    strictEqual(m.modelLabel.value, "gpt-x");
    m.input("/frobnicate now");
    await m.submit();
    assertEquals(calls[0].body, { model: "gpt-x", model_provider: "openai" });
    assertEquals(calls[1].body, { session_id: "s1", message: "/frobnicate now" });

    m.input("/title Road trip");
    await m.submit();
    assertEquals(calls[2].body, { session_id: "s1", title: "Road trip" });
    assertEquals(titles, ["Road trip · Hermes Console"]);
    strictEqual(m.flash.value, "Renamed to “Road trip”");

    // The menu's pick runs /model with the provider of the chosen row.
    m.input("/model gpt");
    // Enter runs what the menu's picks hold, which follow its items: wait for both.
    await until(
      () => m.menu.items.value.length === 1 && m.menu.picks.value.length === 1,
      "the models loaded",
    );
    strictEqual(m.keyDown(key("Enter")), "prevent");
    // On failure, say what the composer was left holding.
    await until(
      () => calls.length === 4,
      () =>
        `the model was set (error ${JSON.stringify(m.error.value)}, draft ${
          JSON.stringify(m.draft.value)
        }, menu open ${m.menu.open.value}, calls ${calls.map((c) => c.path).join(" ")})`,
    );
    assertEquals(calls[3].body, { session_id: "s1", model: "gpt-x", model_provider: "openai" });
    strictEqual(m.model.value.id, "gpt-x");
  });
});

Deno.test("switches: /yolo and /network follow the server's answer; the chip turns approvals back on", async () => {
  const state = { skip_approvals: false, allow_network: false };
  await withComposer({ sessionId: "s1" }, {
    "POST /api/session/yolo": (b) => ({ skip_approvals: state.skip_approvals = !!b.enabled }),
    "POST /api/session/network": (b) => ({ allow_network: state.allow_network = !!b.enabled }),
  }, async ({ m }) => {
    const seen: boolean[] = [];
    const off = onHermesEvent("hermes:skip-approvals", (d) => seen.push(d.enabled));
    try {
      m.input("/yolo");
      await m.submit();
      strictEqual(m.yolo.value, true);
      assertEquals(m.panel.value, { kind: "yolo" });
      await m.toggleYolo();
      strictEqual(m.yolo.value, false);
      strictEqual(m.flash.value, "Approvals are back on");
      assertEquals(seen, [true, false]);
      emitHermesEvent("hermes:skip-approvals", { session_id: "s1", enabled: true });
      strictEqual(m.yolo.value, true, "another tab's switch is followed");
    } finally {
      off();
    }
    m.input("/network");
    await m.submit();
    strictEqual(m.network.value, true);
    strictEqual(m.flash.value, "The shell can reach the network in this chat");
  });
});

Deno.test("the send key decides what Enter does, and a settings change applies at once", async () => {
  await withComposer({ sessionId: "s1", sendKey: "ctrl+enter" }, {}, ({ m }) => {
    m.input("line one");
    strictEqual(m.keyDown(key("Enter")), null, "the textarea inserts the newline");
    strictEqual(m.keyDown(key("Enter", { shiftKey: true })), null);
    strictEqual(m.hint.value, "Ctrl+Enter to send · Enter for a new line");
    emitHermesEvent("hermes:settings-changed", { settings: { send_key: "enter" } } as never);
    strictEqual(m.sendKey.value, "enter");
    strictEqual(m.keyDown(key("Enter", { ctrlKey: true })), "newline");
    strictEqual(m.keyDown(key("Enter", { shiftKey: true })), null);
  });
});

Deno.test("the draft is restored from storage and saved as it changes", async () => {
  await withComposer({ sessionId: "s9" }, {}, async ({ m, drafts }) => {
    strictEqual(m.draft.value, "half a thought");
    m.input("a whole thought");
    await until(() => drafts.get("s9") === "a whole thought", "the draft was saved");
    m.input("   ");
    await until(() => !drafts.has("s9"), "a blank draft is forgotten");
  }, { savedDraft: "half a thought" });
});
