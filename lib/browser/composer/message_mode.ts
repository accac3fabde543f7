// Browser-safe: imports nothing from Deno or the database.
// What Send does while an answer runs: queue the message (sent when the run ends; several may
// wait, each editable and removable), steer the running agent (POST /api/chat/steer: the note
// reaches it before its next model call) or interrupt (stop, then send). Invariants: the head of
// the queue lives in the composer's `queued` signal (composer_page.ts sends it when the run
// ends) and the rest here, promoted one by one; a steer the server refuses is queued instead.
import { batch, computed, effect, type Signal, signal } from "@preact/signals";
import type { DraftAttachment } from "./attachment_tray.ts";
import { t } from "../../i18n/t.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";

export type MessageMode = "queue" | "steer" | "interrupt";
export const MESSAGE_MODES: readonly MessageMode[] = ["queue", "steer", "interrupt"];

export interface QueuedItem {
  text: string;
  attachments: DraftAttachment[];
}

/** Each mode's catalog keys: its name, what it does, and the verb used inside a sentence. */
const MODE_KEYS: Record<MessageMode, { name: string; hint: string; verb: string }> = {
  queue: {
    name: "composer.modeQueue",
    hint: "composer.modeQueueHint",
    verb: "composer.modeQueueVerb",
  },
  steer: {
    name: "composer.modeSteer",
    hint: "composer.modeSteerHint",
    verb: "composer.modeSteerVerb",
  },
  interrupt: {
    name: "composer.modeInterrupt",
    hint: "composer.modeInterruptHint",
    verb: "composer.modeInterruptVerb",
  },
};

/** The mode's name on Send and in the picker ("Queue"). */
export const modeLabel = (m: MessageMode) => t(MODE_KEYS[m].name);
/** What the mode does ("sent when the answer finishes"). */
export const modeHint = (m: MessageMode) => t(MODE_KEYS[m].hint);
/** The mode as a verb inside a sentence ("queue"). */
export const modeVerb = (m: MessageMode) => t(MODE_KEYS[m].verb);

export interface ModeHost {
  sid: Signal<string | null>;
  run: Signal<string | null>;
  queued: Signal<QueuedItem | null>;
  api<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
  send(text: string, atts: DraftAttachment[]): Promise<void>;
  showFlash(text: string): void;
}

export function isMessageMode(v: unknown): v is MessageMode {
  return typeof v === "string" && (MESSAGE_MODES as readonly string[]).includes(v);
}

export function createMessageModes(initial: MessageMode, host: ModeHost) {
  const mode = signal<MessageMode>(initial);
  const rest = signal<QueuedItem[]>([]);
  /** Everything waiting, in the order it will go. */
  const all = computed(() => host.queued.value ? [host.queued.value, ...rest.value] : rest.value);

  function enqueue(item: QueuedItem) {
    if (!host.queued.peek()) host.queued.value = item;
    else rest.value = [...rest.peek(), item];
  }

  /** Drop item `i` of the queue; returns it (to put back in the draft). */
  function remove(i: number): QueuedItem | null {
    const list = all.peek();
    const item = list[i];
    if (!item) return null;
    batch(() => {
      if (i === 0 && host.queued.peek()) host.queued.value = rest.peek()[0] ?? null;
      rest.value = i === 0 ? rest.peek().slice(1) : rest.peek().filter((_, k) => k !== i - 1);
    });
    return item;
  }

  /** Send `text` in `how` (the mode, or a one-off from /steer <text>) while a run is busy. */
  async function busySend(text: string, atts: DraftAttachment[], how: MessageMode = mode.peek()) {
    if (how === "interrupt") {
      await host.stop();
      return await host.send(text, atts);
    }
    if (how === "steer" && atts.length === 0 && host.sid.peek()) {
      const res = await host.api<{ accepted: boolean }>("POST", "/api/chat/steer", {
        session_id: host.sid.peek(),
        stream_id: host.run.peek(),
        text,
      });
      if (res.accepted) return host.showFlash(t("composer.steerSent"));
      host.showFlash(t("composer.steerLate"));
    } else if (how === "steer") host.showFlash(t("composer.steerFiles"));
    enqueue({ text, attachments: atts });
    const waiting = all.peek().length;
    emitHermesEvent("hermes:announce", { text: t("a11y_sr.queued", { count: waiting }) });
  }

  /** Start following: when the head was sent, the next waiting message becomes the head. */
  function connect(): () => void {
    return effect(() => {
      if (host.queued.value || !rest.value.length) return;
      const [next, ...more] = rest.value;
      batch(() => {
        rest.value = more;
        host.queued.value = next;
      });
    });
  }

  /** An answer is running (Send goes through the mode). */
  const busy = () => !!host.run.peek();

  return { mode, rest, all, enqueue, remove, busySend, busy, connect };
}

export type MessageModes = ReturnType<typeof createMessageModes>;
