// GET /api/approval/stream?session_id= → SSE: `initial {pending, pending_count}`, then an
// `approval` event with a fresh snapshot whenever the session's queue changes; `: heartbeat`
// every 5 s. Ends when the client goes away or the app closes.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import {
  type ApprovalSnapshot,
  getSkipApprovals,
  pendingApprovals,
  subscribeApprovals,
} from "../../../lib/approvals/approvals.ts";

const encoder = new TextEncoder();
const frame = (event: string, data: ApprovalSnapshot) =>
  encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

export const handler: Handlers = {
  GET(req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    getSkipApprovals(app.db, sessionId); // 404 for an unknown session
    const hub = app.tools.approvals;
    let cleanup = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let closed = false;
        const send = (bytes: Uint8Array) => {
          if (closed) return;
          try {
            controller.enqueue(bytes);
          } catch {
            cleanup();
          }
        };
        const unsubscribe = subscribeApprovals(hub, sessionId, (s) => send(frame("approval", s)));
        const heartbeat = setInterval(() => send(encoder.encode(": heartbeat\n\n")), 5000);
        cleanup = () => {
          if (closed) return;
          closed = true;
          unsubscribe();
          clearInterval(heartbeat);
          hub.streams.delete(cleanup);
          req.signal.removeEventListener("abort", cleanup);
          try {
            controller.close();
          } catch { /* already closed */ }
        };
        hub.streams.add(cleanup);
        req.signal.addEventListener("abort", cleanup, { once: true });
        send(frame("initial", pendingApprovals(app.db, sessionId)));
      },
      cancel() {
        cleanup();
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      },
    });
  },
};
