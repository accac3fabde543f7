// GET /api/approval/stream?session_id= → SSE: `initial {pending, pending_count}`, then an
// `approval` event with a fresh snapshot whenever the session's queue changes; `: heartbeat`
// every 5 s. Ends when the client goes away or the app closes. The initial snapshot is read
// before the response starts, so a database that does not answer is a 503, not a dead stream.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import {
  type ApprovalSnapshot,
  getSkipApprovals,
  subscribeApprovals,
} from "../../../lib/approvals/approvals.ts";

const encoder = new TextEncoder();
const frame = (event: string, data: ApprovalSnapshot) =>
  encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    await getSkipApprovals(app.db, sessionId); // 404 for an unknown session
    const hub = app.tools.approvals;
    let closed = false;
    let unsubscribe = () => {};
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const send = (bytes: Uint8Array) => {
      if (closed) return;
      try {
        controller.enqueue(bytes);
      } catch {
        cleanup();
      }
    };
    const heartbeat = setInterval(() => send(encoder.encode(": heartbeat\n\n")), 5000);
    const cleanup = () => {
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
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        cleanup();
      },
    });
    hub.streams.add(cleanup);
    req.signal.addEventListener("abort", cleanup, { once: true });
    try {
      const stop = await subscribeApprovals(
        hub,
        app.db,
        sessionId,
        (s, first) => send(frame(first ? "initial" : "approval", s)),
      );
      // The client may have gone (or the app closed) while the first snapshot was read.
      if (closed) stop();
      else unsubscribe = stop;
    } catch (err) {
      cleanup();
      throw err;
    }
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      },
    });
  },
};
