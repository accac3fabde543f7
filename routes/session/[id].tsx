// `/session/<id>`: the original's deep link to a conversation. It renders the console exactly as
// `/?session=<id>` does (routes/index.tsx): that session open, or — for an unknown id — the
// empty state with "That chat no longer exists" and a 404.
import type { Handlers } from "../../lib/server/file_router.ts";
import Home, { handler as home } from "../index.tsx";

export const handler: Handlers = {
  GET(req, ctx) {
    ctx.url.searchParams.set("session", ctx.params.id ?? "");
    return (home as Required<Handlers>).GET(req, ctx);
  },
};

export default Home;
