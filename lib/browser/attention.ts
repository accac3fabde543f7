// Browser-safe: imports nothing from Deno or the database.
// The tab's "needs you" signals (started by lib/browser/pages/comfort.ts once the page is idle).
// It polls GET /api/attention (hidden or not; after every run start and end too). While any chat
// waits on the person (an approval or a clarifying question) the document title carries a
// prefix and the favicon a dot (static/favicon-alert.svg); both go back when nothing waits.
// While the tab is hidden, a chat that starts waiting, or a run that finishes or fails, raises
// a system notification when `notifications_enabled` is on and the browser allowed it (asked
// only from the Appearance switch): its text is the chat's title and nothing else; a click
// focuses the tab and opens that chat. Each is raised once (tagged, so two tabs share one).
import { api } from "./api_client.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

interface Chat {
  session_id: string;
  title: string;
}

interface Attention {
  waiting: Array<Chat & { kind: "approval" | "clarify" }>;
  running: Array<Chat & { stream_id: string }>;
  ended: Array<Chat & { stream_id: string; status: string }>;
  notify: boolean;
  sound?: boolean;
}

const POLL_MS = 4000;
const ALERT_ICON = "/static/favicon-alert.svg";

let started = false;
let notify = false;
/** Chime with the notice (`sound_enabled`). */
let sound = false;
/** Chats waiting at the last poll (null before the first: what waits at load is not news). */
let waitingBefore: Set<string> | null = null;
/** Runs seen in progress, until their end is known. */
const watched = new Set<string>();
const announced = new Set<string>();
let waitingNow = false;
/** The title others set (the page, the live transcript) and the one this module wrote. */
let baseTitle = "";
let written = "";
let normalIcon: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight = false;

const openSession = () => new URL(location.href).searchParams.get("session");

/** Put the prefix and the dot on (or take them off), keeping whatever title the page set. */
function paint(): void {
  const want = waitingNow ? t("comfort.titleNeedsYou", { title: baseTitle }) : baseTitle;
  if (document.title !== want) {
    document.title = want;
  }
  written = document.title;
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon) {
    normalIcon ??= icon.getAttribute("href");
    const href = waitingNow ? ALERT_ICON : normalIcon;
    if (href && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  }
}

/**
 * A soft two-note chime (Web Audio: no file to fetch, nothing for the CSP to allow), when the
 * person asked for sound. A browser that blocks audio before a gesture just stays quiet.
 */
function chime(): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!sound || !Ctx) return;
  try {
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.12, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.5);
    [660, 880].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      osc.type = "sine";
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(start + i * 0.14);
      osc.stop(start + 0.5);
    });
    setTimeout(() => void ctx.close(), 800);
  } catch { /* no audio here: the notification and the title still say it */ }
}

/** Raise a notification for `chat` (only while hidden, switched on and allowed; once per id). */
function raise(id: string, heading: string, chat: Chat): void {
  if (announced.has(id)) return;
  announced.add(id);
  if (document.visibilityState !== "hidden") return;
  if (notify || sound) chime();
  if (!notify) return;
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  try {
    const n = new Notification(heading, {
      body: chat.title,
      tag: `hermes-${id}`,
      icon: "/static/icons/icon-192.png",
    });
    n.onclick = () => {
      n.close();
      globalThis.focus();
      if (openSession() !== chat.session_id) {
        location.assign(`/?session=${encodeURIComponent(chat.session_id)}`);
      }
    };
  } catch { /* a browser that only notifies through a service worker: the title still says it */ }
}

function apply(a: Attention): void {
  notify = a.notify;
  sound = a.sound === true;
  const waiting = new Set(a.waiting.map((w) => w.session_id));
  if (waitingBefore) {
    for (const w of a.waiting) {
      if (waitingBefore.has(w.session_id)) continue;
      // A new wait gets a new notification; the id keeps repeats of the same wait quiet.
      announced.delete(`wait-${w.session_id}`);
      raise(
        `wait-${w.session_id}`,
        w.kind === "clarify" ? t("comfort.notifyQuestion") : t("comfort.notifyApproval"),
        w,
      );
    }
  }
  waitingBefore = waiting;
  for (const r of a.running) watched.add(r.stream_id);
  for (const e of a.ended) {
    watched.delete(e.stream_id);
    if (e.status === "done") raise(`end-${e.stream_id}`, t("comfort.notifyDone"), e);
    else if (e.status === "error" || e.status === "interrupted") {
      raise(`end-${e.stream_id}`, t("comfort.notifyFailed"), e);
    }
  }
  waitingNow = waiting.size > 0;
  paint();
}

async function poll(): Promise<void> {
  clearTimeout(timer);
  if (inFlight) return void (timer = setTimeout(poll, 250));
  inFlight = true;
  try {
    const q = watched.size ? `?streams=${encodeURIComponent([...watched].join(","))}` : "";
    apply(await api<Attention>("GET", `/api/attention${q}`, undefined, { background: true }));
  } catch {
    /* signed out or offline: the next poll tries again */
  } finally {
    inFlight = false;
    timer = setTimeout(poll, POLL_MS);
  }
}

/** Start watching (once per page). */
export function watchAttention(): void {
  if (started) return;
  started = true;
  baseTitle = document.title;
  written = document.title;
  let titleEl = document.querySelector("title");
  if (!titleEl) titleEl = document.head.appendChild(document.createElement("title"));
  // The page renames itself (a chat got its title): keep the new title, prefix it again.
  new MutationObserver(() => {
    if (document.title === written) return;
    baseTitle = document.title;
    paint();
  }).observe(titleEl, { childList: true, characterData: true, subtree: true });
  onHermesEvent("hermes:run-state", ({ stream_id, active }) => {
    if (active) watched.add(stream_id);
    void poll();
  });
  onHermesEvent("hermes:chat-ended", ({ stream_id }) => {
    watched.add(stream_id);
    void poll();
  });
  onHermesEvent("hermes:settings-changed", ({ settings }) => {
    if (typeof settings.notifications_enabled === "boolean") {
      notify = settings.notifications_enabled;
    }
    if (typeof settings.sound_enabled === "boolean") sound = settings.sound_enabled;
  });
  document.addEventListener("visibilitychange", () => void poll());
  void poll();
}
