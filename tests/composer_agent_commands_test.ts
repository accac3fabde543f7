// The composer's agent-setup commands without a DOM (lib/browser/composer/agent_commands.ts):
// /goal follows the run the server started for a new goal and only reports the others; /prompt
// puts a saved prompt in the draft, asking for its {{variables}} first; /personality lists the
// presets or sets one; the profile chip switches the profile for new chats. The browser around
// the model is a recording stand-in; tests/e2e/{goal,prompts,profiles}_e2e_test.ts run the same
// flows against the real app.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import {
  type ComposerInit,
  type ComposerModel,
  createComposerModel,
} from "../lib/browser/composer/composer_model.ts";
import { fillPrompt, setPersonality } from "../lib/browser/composer/agent_commands.ts";
import { type HermesEvents, onHermesEvent } from "../lib/shared/ui_events.ts";

type Handler = (body: Record<string, unknown>) => unknown;
type Call = { method: string; path: string; body?: Record<string, unknown> };

const SESSION = { session_id: "s1", workspace: "/w", model: "m1", model_provider: null };
const START = { stream_id: "r1", session_id: "s1", turn_id: "t1", title: "Chat" };

async function withComposer(
  init: Partial<ComposerInit>,
  routes: Record<string, Handler>,
  fn: (m: ComposerModel, calls: Call[], events: Array<[string, unknown]>) => Promise<void> | void,
) {
  const calls: Call[] = [];
  const events: Array<[string, unknown]> = [];
  const m = createComposerModel({ sessionId: null, ...init }, {
    api: async <T>(method: string, path: string, body?: unknown) => {
      calls.push({ method, path, body: body as Record<string, unknown> });
      const route = routes[`${method} ${path.split("?")[0]}`];
      if (!route) throw new Error(`unexpected ${method} ${path}`);
      return await route((body ?? {}) as Record<string, unknown>) as T;
    },
    loadArgChoices: () => Promise.resolve([]),
    navigate: () => {},
    reload: () => {},
    setTitle: () => {},
    readDraft: () => "",
    writeDraft: () => {},
    platform: () => "Linux",
    pollMs: 3_600_000, // the run-status poll never ticks into `calls` mid-test
    flashMs: 60_000,
    draftSaveMs: 0,
  });
  const offs = (["hermes:goal-changed", "hermes:chat-started", "hermes:profile-changed"] as const)
    .map((name) =>
      onHermesEvent(name, (d: HermesEvents[typeof name], ev) => {
        events.push([name, d]);
        if (name === "hermes:chat-started") ev.preventDefault();
      })
    );
  const disconnect = m.connect();
  try {
    await fn(m, calls, events);
  } finally {
    disconnect();
    offs.forEach((off) => off());
  }
}

const goalAnswer = (action: string, message: string, extra = {}) => () => ({
  ok: true,
  action,
  message,
  goal: null,
  ...extra,
});

Deno.test("/goal <text> on a new chat creates it, sets the goal and follows the run the server started", async () => {
  await withComposer({}, {
    "POST /api/session/new": () => ({ session: SESSION }),
    "POST /api/goal": goalAnswer("set", "⊙ Goal set (20-turn budget): Ship it\nmore", {
      kickoff_prompt: "Ship it",
      ...START,
      title: "Ship it",
    }),
  }, async (m, calls, events) => {
    m.input("/goal Ship it");
    await m.submit();
    deepStrictEqual(calls.map((c) => c.path), ["/api/session/new", "/api/goal"]);
    deepStrictEqual(calls[1].body, { session_id: "s1", args: "Ship it" });
    deepStrictEqual(events[0], ["hermes:goal-changed", { session_id: "s1" }]);
    // The transcript attaches to the server's run, showing the kickoff prompt as the user turn.
    deepStrictEqual(events[1], ["hermes:chat-started", {
      stream_id: "r1",
      session_id: "s1",
      turn_id: "t1",
      title: "Ship it",
      message: "Ship it",
    }]);
    strictEqual(m.draft.value, "");
    strictEqual(m.error.value, null);
    strictEqual(m.flash.value, "⊙ Goal set (20-turn budget): Ship it");
  });
});

Deno.test("/goal pause and status only report; a refused /goal is an error", async () => {
  await withComposer({ sessionId: "s1" }, {
    "POST /api/goal": (b) =>
      b.args === "pause"
        ? goalAnswer("pause", "⏸ Goal paused: Ship it")()
        : b.args === ""
        ? goalAnswer("status", "⊙ Goal (active, 1/20 turns): Ship it")()
        : { ok: false, action: "set", error: "agent_running", message: "Agent is running" },
  }, async (m, calls) => {
    m.input("/goal pause");
    await m.submit();
    strictEqual(m.flash.value, "⏸ Goal paused: Ship it");
    m.input("/goal");
    await m.submit();
    deepStrictEqual(m.panel.value, {
      kind: "notice",
      title: "Goal",
      text: "⊙ Goal (active, 1/20 turns): Ship it",
    });
    m.input("/goal Another one");
    await m.submit();
    strictEqual(m.error.value, "Agent is running");
    assert(!calls.some((c) => c.path === "/api/chat/start"), "nothing was sent");
  });
});

Deno.test("/prompt: a prompt with variables asks for them, then the filled text is the draft", async () => {
  const prompts = [
    { name: "review", content: "Review {{file}}", variables: ["file"] },
    { name: "hello", content: "Say hello", variables: [] },
  ];
  await withComposer({ sessionId: "s1" }, {
    "GET /api/prompts": () => ({ prompts }),
    "POST /api/prompts/render": (b) => ({
      ok: true,
      text: b.name === "hello" ? "Say hello" : `Review ${(b.values as { file: string }).file}`,
    }),
  }, async (m, calls) => {
    m.input("/prompt");
    await m.submit();
    strictEqual(m.draft.value, "/prompt ", "no name: the menu of saved prompts opens");
    m.input("/prompt hello");
    await m.submit();
    strictEqual(m.draft.value, "Say hello");
    m.input("/prompt Review");
    await m.submit();
    deepStrictEqual(m.panel.value, { kind: "prompt", name: "review", variables: ["file"] });
    await m.withHost((h) => fillPrompt(h, "review", { file: "main.ts" }));
    strictEqual(m.draft.value, "Review main.ts");
    strictEqual(m.panel.value, null);
    deepStrictEqual(calls.at(-1)?.body, { name: "review", values: { file: "main.ts" } });
    m.input("/prompt nope");
    await m.submit();
    assert(m.error.value?.includes('No saved prompt "nope"'), m.error.value ?? "");
  });
});

Deno.test("/personality lists the presets, sets one by name, and none clears it", async () => {
  const list = [{ name: "terse", description: "Short" }];
  await withComposer({ sessionId: "s1" }, {
    "GET /api/personalities": () => ({ personalities: list }),
    "POST /api/personality/set": (b) => ({ ok: true, personality: b.name || null }),
  }, async (m, calls) => {
    m.input("/personality");
    await m.submit();
    deepStrictEqual(m.panel.value, { kind: "personality", list });
    await m.withHost((h) => setPersonality(h, "terse"));
    strictEqual(m.flash.value, "Personality: terse");
    strictEqual(m.panel.value, null);
    m.input("/personality none");
    await m.submit();
    deepStrictEqual(calls.at(-1)?.body, { session_id: "s1", name: "" });
    strictEqual(m.flash.value, "Personality cleared (default voice)");
  });
});

Deno.test("the profile chip switches the profile for new chats; an open chat keeps its own", async () => {
  await withComposer({ profile: "default" }, {
    "POST /api/profile/switch": (b) => ({ ok: true, active: b.name }),
  }, async (m, calls, events) => {
    strictEqual(m.showProfile.value, false, "only default: no chip");
    await m.switchProfile("work", "big-model");
    strictEqual(m.profile.value, "work");
    strictEqual(m.model.value.id, "big-model", "the new chat shows the profile's model");
    deepStrictEqual(calls[0].body, { name: "work" });
    deepStrictEqual(events.at(-1), ["hermes:profile-changed", { name: "work" }]);
  });
  await withComposer({ sessionId: "s1", profile: "work" }, {
    "POST /api/profile/switch": () => ({ ok: true, active: "default" }),
  }, async (m) => {
    strictEqual(m.showProfile.value, true);
    await m.switchProfile("default", null);
    strictEqual(m.profile.value, "work");
    strictEqual(m.flash.value, "New chats use the default profile");
  });
});

Deno.test("a profile switched elsewhere (Control Center) shows on a new chat's chip", async () => {
  const { emitHermesEvent } = await import("../lib/shared/ui_events.ts");
  await withComposer({ profile: "default" }, {}, (m) => {
    emitHermesEvent("hermes:profile-changed", { name: "work" });
    strictEqual(m.showProfile.value, true);
    strictEqual(m.profile.value, "work");
  });
  await withComposer({ sessionId: "s1", profile: "default" }, {}, (m) => {
    emitHermesEvent("hermes:profile-changed", { name: "work" });
    strictEqual(m.profile.value, "default", "an open chat keeps its profile");
  });
});
