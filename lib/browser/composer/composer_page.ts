// Browser-safe: imports nothing from Deno or the database.
// The composer's life in the page, started once after mount: the saved draft restored and kept,
// run state followed from the transcript's `hermes:*` events (and polled when no transcript
// reports it), the queued message sent when the run ends, the /yolo switch and the send key
// followed, argument suggestions loaded once per source. Stopping undoes all of it.
import { effect, type ReadonlySignal, type Signal } from "@preact/signals";
import type { SendKey } from "../composer_state.ts";
import type { ArgSource } from "../slash_commands.ts";
import { onHermesEvent } from "../../shared/ui_events.ts";
import type { ArgChoice, SlashMenuModel } from "./slash_menu_model.ts";
import type { CommandDeps } from "./composer_commands.ts";

/** What the page's life needs from the browser (part of the composer model's dependencies). */
export interface PageDeps {
  api: CommandDeps["api"];
  loadArgChoices(source: ArgSource, home: string | null): Promise<ArgChoice[]>;
  readDraft(sessionId: string | null): string;
  writeDraft(sessionId: string | null, text: string): void;
  /** `navigator.platform` or the user agent (Mac shows ⌘). */
  platform(): string;
  /** How often an active run is double-checked when no transcript reports its end. */
  pollMs: number;
  /** The draft is saved this long after the last keystroke. */
  draftSaveMs: number;
}

/** The parts of the composer model the page drives (`Q`: a queued message). */
export interface PageParts<Q> {
  /** The page's session (the draft's key). */
  sessionId: string | null;
  home: string | null;
  deps: PageDeps;
  sid: ReadonlySignal<string | null>;
  draft: Signal<string>;
  run: Signal<string | null>;
  queued: Signal<Q | null>;
  sending: ReadonlySignal<boolean>;
  yolo: Signal<boolean>;
  sendKey: Signal<SendKey>;
  /** Settings the composer follows live (lib/browser/composer/composer_model.ts). */
  prefs?: { pasteAsFile: Signal<boolean>; newChatOnSwitch: Signal<boolean> };
  mac: Signal<boolean>;
  menu: SlashMenuModel;
  sendQueued(q: Q): void;
}

/** Start; returns the function that stops every listener, timer and effect. */
export function followPage<Q>(p: PageParts<Q>): () => void {
  const { sessionId, home, deps, sid, draft, run, queued, sending, yolo, sendKey, mac, menu } = p;
  mac.value = /Mac|iPhone|iPad/.test(deps.platform());
  const saved = deps.readDraft(sessionId);
  if (saved) draft.value = saved;
  const loadingArgs = new Set<ArgSource>();
  const offs = [
    onHermesEvent("hermes:run-state", (d) => {
      if (d.session_id !== sid.value) return;
      const cur = run.value;
      run.value = d.active ? d.stream_id : cur === d.stream_id || cur === null ? null : cur;
    }),
    onHermesEvent("hermes:chat-ended", (d) => {
      if (d.session_id === sid.value && run.value === d.stream_id) run.value = null;
    }),
    onHermesEvent("hermes:skip-approvals", (d) => {
      if (d.session_id === sid.value) yolo.value = d.enabled;
    }),
    onHermesEvent("hermes:settings-changed", ({ settings }) => {
      const key = settings.send_key;
      if (key === "enter" || key === "ctrl+enter" || key === "shift+enter") sendKey.value = key;
      const paste = settings.large_text_paste_as_attachment;
      if (p.prefs && typeof paste === "boolean") p.prefs.pasteAsFile.value = paste;
      const newChat = settings.new_chat_on_workspace_switch;
      if (p.prefs && typeof newChat === "boolean") p.prefs.newChatOnSwitch.value = newChat;
    }),
    effect(() => {
      const text = draft.value;
      const t = setTimeout(() => deps.writeDraft(sessionId, text), deps.draftSaveMs);
      return () => clearTimeout(t);
    }),
    // A safety net for pages without a live transcript: ask the server whether the run ended.
    effect(() => {
      const id = run.value;
      if (!id) return;
      const timer = setInterval(async () => {
        try {
          const s = await deps.api<{ active: boolean }>(
            "GET",
            `/api/chat/stream/status?stream_id=${encodeURIComponent(id)}`,
          );
          if (!s.active && run.peek() === id) run.value = null;
        } catch { /* a transient failure: try again at the next tick */ }
      }, deps.pollMs);
      return () => clearInterval(timer);
    }),
    // The run ended: send what was queued meanwhile.
    effect(() => {
      const q = queued.value;
      if (run.value || !q || sending.value) return;
      queued.value = null;
      p.sendQueued(q);
    }),
    effect(() => {
      const source = menu.argSource.value;
      if (!source || menu.argChoices.peek()[source] || loadingArgs.has(source)) return;
      loadingArgs.add(source);
      const put = (list: ArgChoice[]) =>
        menu.argChoices.value = { ...menu.argChoices.peek(), [source]: list };
      deps.loadArgChoices(source, home).then(put, () => put([]))
        .finally(() => loadingArgs.delete(source));
    }),
  ];
  return () => offs.forEach((off) => off());
}
