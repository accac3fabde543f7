// How a browser talks to a terminal: a WebSocket (binary frames = screen bytes and keystrokes,
// JSON text frames = control), or the HTTP fallback's SSE output stream. Invariants: a socket is
// only upgraded after the same-origin check (middleware) and the page's proof, which a WebSocket
// cannot send as a header and so sends as `?token=`; a viewer too slow to keep up is dropped (it
// reattaches and gets the scrollback) rather than buffering without bound.
import { type AuthState, CSRF_HEADER, type Security } from "../security/auth.ts";
import { checkRequestProof } from "../security/request_proof.ts";
import { ValidationError } from "../errors.ts";
import { SSE_HEADERS } from "../engine/sse.ts";
import type { TerminalManager } from "./terminal_manager.ts";
import type { OnGoingAway } from "../server/live_responses.ts";

/** Bytes a socket may have queued before the viewer counts as stuck and is dropped. */
export const MAX_SOCKET_BACKLOG = 4 * 1024 * 1024;

/**
 * The proof of a WebSocket upgrade: the page's token from the query string, checked exactly as
 * the X-Hermes-CSRF-Token header of any write (lib/security/request_proof.ts).
 */
export async function checkSocketProof(
  sec: Security,
  req: Request,
  auth: AuthState,
  token: string | null,
): Promise<void> {
  const headers = new Headers(req.headers);
  headers.delete(CSRF_HEADER);
  if (token) headers.set(CSRF_HEADER, token);
  await checkRequestProof(sec, new Request(req.url, { headers }), auth);
}

/** Client → server control frames. */
type ControlFrame =
  | { type: "input"; data: string }
  | { type: "resize"; rows: number; cols: number };

function parseControl(text: string): ControlFrame | null {
  try {
    const v = JSON.parse(text);
    if (v?.type === "input" && typeof v.data === "string") return v;
    if (v?.type === "resize") return v;
  } catch { /* ignored below */ }
  return null;
}

/**
 * Upgrade `req` and attach it to the terminal (which must exist: checked before upgrading). With
 * `onGoingAway` (AppContext.live), a server shutdown closes the socket with 1001 ("going away")
 * before the shell is killed, so the page reconnects instead of reading "exited".
 */
export function serveTerminalSocket(
  manager: TerminalManager,
  req: Request,
  sessionId: string,
  terminalId: string,
  onGoingAway?: OnGoingAway,
): Response {
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new ValidationError("Expected a WebSocket upgrade (Upgrade: websocket)");
  }
  const info = manager.info(sessionId, terminalId); // 404 before the upgrade
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.binaryType = "arraybuffer";
  let detach: (() => void) | null = null;
  const drop = (code: number, reason: string) => {
    detach?.();
    detach = null;
    try {
      socket.close(code, reason);
    } catch { /* closed */ }
  };
  socket.onopen = () => {
    try {
      const a = manager.attach(sessionId, terminalId, {
        data(chunk) {
          if (socket.readyState !== WebSocket.OPEN) return;
          if (socket.bufferedAmount > MAX_SOCKET_BACKLOG) return drop(4008, "viewer too slow");
          socket.send(chunk);
        },
        exit(code) {
          if (socket.readyState !== WebSocket.OPEN) return;
          socket.send(JSON.stringify({ type: "exit", code }));
          drop(1000, "exited");
        },
      });
      detach = a.detach;
      // `scrollback`: the byte count of the replay frame that follows (0: none). The client
      // must not answer the terminal queries inside it (they were answered long ago).
      socket.send(JSON.stringify({
        type: "attached",
        terminal: { ...info, viewers: info.viewers + 1 },
        scrollback: a.scrollback.length,
      }));
      if (a.scrollback.length) socket.send(a.scrollback);
    } catch {
      drop(4004, "terminal not running");
    }
  };
  socket.onmessage = (e) => {
    const fail = () => drop(4000, "bad frame");
    if (e.data instanceof ArrayBuffer) {
      manager.input(sessionId, terminalId, new Uint8Array(e.data)).catch(fail);
      return;
    }
    const frame = typeof e.data === "string" ? parseControl(e.data) : null;
    if (!frame) return fail();
    try {
      if (frame.type === "input") manager.input(sessionId, terminalId, frame.data).catch(fail);
      else manager.resize(sessionId, terminalId, frame.rows, frame.cols);
    } catch {
      fail();
    }
  };
  const forget = onGoingAway?.(() => drop(1001, "server going away"));
  socket.onclose = () => {
    forget?.();
    detach?.();
    detach = null;
  };
  socket.onerror = () => {};
  return response;
}

const enc = new TextEncoder();
const frame = (event: string, data: unknown) =>
  enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * The HTTP fallback's output: SSE `output` events ({text}, the scrollback first), then `exit`
 * ({code}) and the end of the stream. A `: heartbeat` keeps proxies from cutting it.
 */
export function terminalOutputStream(
  manager: TerminalManager,
  sessionId: string,
  terminalId: string,
  heartbeatMs = 15_000,
): Response {
  manager.info(sessionId, terminalId); // 404 up front
  let detach: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const decoder = new TextDecoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        clearInterval(heartbeat);
        detach?.();
        detach = null;
        try {
          controller.close();
        } catch { /* cancelled */ }
      };
      const send = (bytes: Uint8Array) => {
        if ((controller.desiredSize ?? 0) < -MAX_SOCKET_BACKLOG) return close();
        const text = decoder.decode(bytes, { stream: true });
        if (text) controller.enqueue(frame("output", { text }));
      };
      const a = manager.attach(sessionId, terminalId, {
        data: send,
        exit(code) {
          controller.enqueue(frame("exit", { code }));
          close();
        },
      });
      detach = a.detach;
      if (a.scrollback.length) send(a.scrollback);
      heartbeat = setInterval(() => {
        try {
          controller.enqueue(enc.encode(": heartbeat\n\n"));
        } catch {
          close();
        }
      }, heartbeatMs);
    },
    cancel() {
      clearInterval(heartbeat);
      detach?.();
      detach = null;
    },
  }, { highWaterMark: 0, size: (c) => c.byteLength });
  return new Response(body, { headers: SSE_HEADERS });
}
