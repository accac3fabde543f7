// Browser-safe: imports nothing from Deno or the database.
// The workspace panel's Terminal tab: one xterm.js screen per terminal of the session (tabs, "+"
// for another), each attached over a WebSocket to a sandboxed PTY shell (lib/terminal). xterm.js
// and its stylesheet load on first show only. Invariants: a dropped socket reattaches while the
// server keeps the shell (grace period), and the scrollback it replays replaces the screen; the
// page's proof token rides in the socket's query string (a WebSocket sends no custom header).
import type { Terminal as XTerm } from "@xterm/xterm";
import type { FitAddon } from "@xterm/addon-fit";
import { api, ApiError, csrfToken } from "../api_client.ts";
import type { PanelView } from "./panel_views.ts";
import { el } from "../ui_menu.ts";
import { t } from "../../i18n/t.ts";

const STYLESHEETS = ["/static/xterm/xterm.css", "/static/terminal.css"];

interface TerminalInfo {
  terminal_id: string;
  rows: number;
  cols: number;
  created_at: number;
}

/** One open terminal: its screen, its socket, its tab. */
interface Screen {
  id: string;
  term: XTerm;
  fit: FitAddon;
  el: HTMLElement;
  tab: HTMLButtonElement;
  socket: WebSocket | null;
  exited: boolean;
  retry: number;
  disposed: boolean;
  /** Scrollback writes in flight: xterm's replies to the queries inside them are dropped. */
  replaying: number;
}

let xtermLib: Promise<[typeof import("@xterm/xterm"), typeof import("@xterm/addon-fit")]> | null =
  null;
const loadXterm = () => {
  for (const href of STYLESHEETS) {
    if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
  xtermLib ??= Promise.all([import("@xterm/xterm"), import("@xterm/addon-fit")]);
  return xtermLib;
};

let host: HTMLElement;
let sessionId: string | null = null;
let screens: Screen[] = [];
let active: Screen | null = null;
let generation = 0;
const enc = new TextEncoder();

function status(text: string): void {
  const s = host.querySelector<HTMLElement>("[data-term-status]");
  if (s) {
    s.textContent = text;
    s.hidden = text === "";
  }
}

/** Colours and font from the page's design tokens (dark and light themes alike). */
function theme() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, d: string) => css.getPropertyValue(name).trim() || d;
  return {
    background: v("--panel-subtle", "#11100e"),
    foreground: v("--text", "#eae0d5"),
    cursor: v("--accent", "#c6ac8f"),
    selectionBackground: "rgba(198, 172, 143, 0.35)",
  };
}

function build(): void {
  host.replaceChildren();
  const view = el("div", { class: "term-view", "data-term-view": "" });
  const bar = el("div", { class: "term-bar" });
  const tabs = el("div", {
    class: "term-tabs",
    role: "tablist",
    "aria-label": t("workspace.terminals"),
  });
  const add = el("button", {
    type: "button",
    class: "term-add",
    "data-term-add": "",
    "aria-label": t("workspace.newTerminal"),
    title: t("workspace.newTerminal"),
  }, "+");
  add.addEventListener("click", () => void newTerminal());
  bar.append(tabs, add);
  const msg = el("p", { class: "term-status", "data-term-status": "", "aria-live": "polite" });
  msg.hidden = true;
  const stage = el("div", { class: "term-stage", "data-term-stage": "" });
  view.append(bar, msg, stage);
  host.append(view);
  new ResizeObserver(() => fitActive()).observe(stage);
}

function fitActive(): void {
  if (!active || active.disposed || host.hidden || !active.el.isConnected) return;
  if (active.el.clientWidth === 0 || active.el.clientHeight === 0) return;
  try {
    active.fit.fit();
  } catch { /* not laid out yet */ }
}

function select(s: Screen): void {
  active = s;
  for (const x of screens) {
    const on = x === s;
    x.el.hidden = !on;
    x.tab.setAttribute("aria-selected", String(on));
    x.tab.tabIndex = on ? 0 : -1;
  }
  requestAnimationFrame(() => {
    fitActive();
    s.term.focus();
  });
}

function label(): void {
  screens.forEach((s, i) => {
    const n = String(i + 1);
    s.tab.querySelector(".term-tab-name")!.textContent = s.exited
      ? t("workspace.terminalTabExited", { n })
      : t("workspace.terminalTab", { n });
  });
}

function connect(s: Screen): void {
  if (s.disposed || s.exited || !sessionId) return;
  const q = new URLSearchParams({ session_id: sessionId, terminal_id: s.id });
  const token = csrfToken();
  if (token) q.set("token", token);
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/terminal/ws?${q}`);
  ws.binaryType = "arraybuffer";
  s.socket = ws;
  let attached = false;
  let replayNext = false;
  ws.onmessage = (e) => {
    if (typeof e.data !== "string") {
      const bytes = new Uint8Array(e.data as ArrayBuffer);
      if (!replayNext) return s.term.write(bytes);
      // The replayed scrollback holds programs' old queries (vim asks for colours, the cursor
      // position…): xterm's answers to them must not reach the shell as typed input.
      replayNext = false;
      s.replaying++;
      s.term.write(bytes, () => s.replaying--);
      return;
    }
    const msg = JSON.parse(e.data) as { type: string; code?: number; scrollback?: number };
    if (msg.type === "attached") {
      attached = true;
      replayNext = (msg.scrollback ?? 0) > 0;
      s.retry = 0;
      s.term.reset(); // the scrollback that follows is the whole screen
      if (s === active) status("");
      sendSize(s);
    } else if (msg.type === "exit") {
      s.exited = true;
      s.term.write(`\r\n${t("workspace.shellExited", { code: String(msg.code ?? "?") })}\r\n`);
      label();
    }
  };
  ws.onclose = (e) => {
    if (s.socket === ws) s.socket = null;
    if (s.disposed || s.exited) return;
    if (e.code === 4004 || (!attached && s.retry >= 4)) {
      s.exited = true;
      s.term.write(`\r\n${t("workspace.terminalGone")}\r\n`);
      label();
      return;
    }
    // The server keeps the shell for a while: reattach (backing off) and replay its scrollback.
    const delay = Math.min(8000, 250 * 2 ** s.retry++);
    if (s === active) status(t("workspace.reconnecting"));
    setTimeout(() => connect(s), delay);
  };
}

function sendSize(s: Screen): void {
  if (s.socket?.readyState !== WebSocket.OPEN) return;
  s.socket.send(JSON.stringify({ type: "resize", rows: s.term.rows, cols: s.term.cols }));
}

async function open(info: TerminalInfo): Promise<Screen> {
  const [{ Terminal }, { FitAddon }] = await loadXterm();
  const term = new Terminal({
    rows: info.rows,
    cols: info.cols,
    cursorBlink: true,
    fontFamily: getComputedStyle(document.documentElement).getPropertyValue("--font-mono").trim() ||
      "ui-monospace, monospace",
    fontSize: 12,
    scrollback: 5000,
    theme: theme(),
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const screenEl = el("div", {
    class: "term-screen",
    role: "tabpanel",
    "data-terminal-id": info.terminal_id,
  });
  // Tests (and debugging) read the screen through xterm's own buffer.
  Object.defineProperty(screenEl, "xterm", { value: term });
  const tab = el("button", {
    type: "button",
    role: "tab",
    class: "term-tab",
    "data-term-tab": info.terminal_id,
  });
  const name = el("span", { class: "term-tab-name" });
  const close = el("span", {
    class: "term-tab-close",
    role: "button",
    "aria-label": t("workspace.closeTerminal"),
    title: t("workspace.closeTerminal"),
  }, "×");
  tab.append(name, close);
  const s: Screen = {
    id: info.terminal_id,
    term,
    fit,
    el: screenEl,
    tab,
    socket: null,
    exited: false,
    retry: 0,
    disposed: false,
    replaying: 0,
  };
  tab.addEventListener("click", (e) => {
    if ((e.target as Element).closest(".term-tab-close")) void closeTerminal(s);
    else select(s);
  });
  host.querySelector("[data-term-stage]")!.append(screenEl);
  host.querySelector(".term-tabs")!.append(tab);
  term.open(screenEl);
  term.onData((d) => {
    if (s.replaying === 0 && s.socket?.readyState === WebSocket.OPEN) s.socket.send(enc.encode(d));
  });
  term.onBinary((d) => {
    if (s.replaying > 0 || s.socket?.readyState !== WebSocket.OPEN) return;
    s.socket.send(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff));
  });
  let pending: ReturnType<typeof setTimeout> | undefined;
  term.onResize(() => {
    clearTimeout(pending);
    pending = setTimeout(() => sendSize(s), 80);
  });
  screens.push(s);
  label();
  connect(s);
  return s;
}

function dispose(s: Screen): void {
  s.disposed = true;
  s.socket?.close();
  s.term.dispose();
  s.el.remove();
  s.tab.remove();
  screens = screens.filter((x) => x !== s);
  if (active === s) active = null;
}

async function closeTerminal(s: Screen): Promise<void> {
  if (!s.exited && sessionId) {
    await api("POST", "/api/terminal/close", { session_id: sessionId, terminal_id: s.id })
      .catch(() => {});
  }
  dispose(s);
  label();
  if (screens.length) select(screens[screens.length - 1]);
  else status(t("workspace.noTerminal"));
}

async function newTerminal(): Promise<void> {
  if (!sessionId) return;
  const gen = generation;
  status(t("workspace.startingTerminal"));
  try {
    const { terminal } = await api<{ terminal: TerminalInfo }>("POST", "/api/terminal/start", {
      session_id: sessionId,
      rows: active?.term.rows ?? 24,
      cols: active?.term.cols ?? 80,
    });
    if (gen !== generation) return;
    status("");
    select(await open(terminal));
  } catch (err) {
    status(
      err instanceof ApiError
        ? err.message
        : t("workspace.terminalStartFailed", { error: String(err) }),
    );
  }
}

async function load(ctx: { sessionId: string | null }): Promise<void> {
  const gen = ++generation;
  for (const s of [...screens]) dispose(s);
  sessionId = ctx.sessionId;
  if (!sessionId) {
    status(t("workspace.terminalNoSession"));
    return;
  }
  await loadXterm();
  try {
    const { terminals } = await api<{ terminals: TerminalInfo[] }>(
      "GET",
      `/api/terminal/list?session_id=${encodeURIComponent(sessionId)}`,
    );
    if (gen !== generation) return;
    if (terminals.length === 0) return await newTerminal();
    for (const info of terminals) await open(info);
    select(screens[screens.length - 1]);
  } catch (err) {
    status(
      err instanceof ApiError
        ? err.message
        : t("workspace.terminalLoadFailed", { error: String(err) }),
    );
  }
}

const view: PanelView = {
  async mount(h, ctx) {
    host = h;
    build();
    await load(ctx);
  },
  shown() {
    requestAnimationFrame(() => {
      fitActive();
      active?.term.focus();
    });
  },
  sessionChanged(ctx) {
    if (ctx.sessionId !== sessionId) void load(ctx);
  },
};

export const { mount, shown, sessionChanged } = view;
