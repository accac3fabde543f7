// Browser-safe: imports nothing from Deno or the database.
// `/btw` and `/background` in the composer: the side question's answer streamed into a
// dismissible panel (it never joins the transcript), and the session's background tasks,
// listed while they run and marked when `bg_task_complete` arrives. Invariants: one side
// question at a time (a new one replaces the panel); the task list is the server's
// (GET /api/background/status), refreshed on each completion event, so a reload shows the same.
import { type Signal, signal } from "@preact/signals";
import { createSseParser, followStream } from "../stream_client.ts";
import { csrfToken } from "../api_client.ts";
import { t } from "../../i18n/t.ts";

export interface BtwState {
  question: string;
  answer: string;
  status: "asking" | "answering" | "done" | "error";
  error?: string;
}

export interface BackgroundTaskView {
  task_id: string;
  prompt: string;
  status: string;
  answer: string | null;
}

export interface SideHost {
  sid: Signal<string | null>;
  /** List the session's tasks when the composer mounts (false in model tests). */
  loadOnMount: boolean;
  api<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T>;
  ensureSession(): Promise<{ session_id: string }>;
  showFlash(text: string): void;
}

export function createSideRuns(host: SideHost) {
  const btw = signal<BtwState | null>(null);
  const tasks = signal<BackgroundTaskView[]>([]);
  let btwFollow: { close(): void } | null = null;
  let events: AbortController | null = null;

  async function ask(question: string) {
    btwFollow?.close();
    btw.value = { question, answer: "", status: "asking" };
    try {
      const s = await host.ensureSession();
      const res = await host.api<{ stream_id: string }>("POST", "/api/btw", {
        session_id: s.session_id,
        question,
      });
      const follow = followStream({
        streamId: res.stream_id,
        onEvent: (e) => {
          const cur = btw.peek();
          if (!cur || cur.question !== question) return;
          if (e.event === "token") {
            btw.value = { ...cur, status: "answering", answer: cur.answer + e.data.text };
          } else if (e.event === "apperror" || e.event === "error") {
            btw.value = { ...cur, status: "error", error: e.data.message };
          }
        },
      });
      btwFollow = follow;
      await follow.done;
      const cur = btw.peek();
      if (cur && cur.question === question && cur.status !== "error") {
        btw.value = { ...cur, status: "done" };
      }
    } catch (err) {
      btw.value = { question, answer: "", status: "error", error: (err as Error).message };
    }
  }

  function dismissBtw() {
    btwFollow?.close();
    btwFollow = null;
    btw.value = null;
  }

  async function refresh() {
    const id = host.sid.peek();
    if (!id) return;
    const res = await host.api<{ tasks: BackgroundTaskView[] }>(
      "GET",
      `/api/background/status?session_id=${encodeURIComponent(id)}`,
    );
    tasks.value = res.tasks;
  }

  async function startBackground(prompt: string) {
    const s = await host.ensureSession();
    await host.api("POST", "/api/background", { session_id: s.session_id, prompt });
    host.showFlash(t("composer.backgroundStarted"));
    listen();
    await refresh();
  }

  async function dismissTask(taskId: string) {
    const id = host.sid.peek();
    if (!id) return;
    await host.api("POST", "/api/background/dismiss", { session_id: id, task_id: taskId });
    tasks.value = tasks.peek().filter((t) => t.task_id !== taskId);
  }

  /** Follow `bg_task_complete` for this session (once; ends with `close`). */
  function listen() {
    const id = host.sid.peek();
    if (!id || events) return;
    const ac = new AbortController();
    events = ac;
    const parse = createSseParser();
    const token = csrfToken();
    fetch(`/api/background/events?session_id=${encodeURIComponent(id)}`, {
      signal: ac.signal,
      headers: token ? { "x-hermes-csrf-token": token } : {},
    })
      .then(async (res) => {
        if (!res.ok || !res.body) return;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        while (true) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const f of parse(value)) {
            if (f.event !== "bg_task_complete") continue;
            host.showFlash(t("composer.backgroundFinished"));
            void refresh().catch(() => {});
          }
        }
      })
      .catch(() => {})
      .finally(() => {
        if (events === ac) events = null;
      });
  }

  /** On mount: show the session's tasks and, when some are running, follow their end. */
  function connect(): () => void {
    if (host.loadOnMount && host.sid.peek()) {
      refresh().then(() => {
        if (tasks.peek().some((t) => t.status === "running")) listen();
      }).catch(() => {});
    }
    return () => {
      btwFollow?.close();
      events?.abort();
    };
  }

  return { btw, tasks, ask, dismissBtw, startBackground, dismissTask, refresh, connect };
}

export type SideRuns = ReturnType<typeof createSideRuns>;
