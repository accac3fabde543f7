// Fresh-style file routing on Hono. routes/ mirrors URLs: `routes/api/session/new.ts` serves
// `/api/session/new`, `[id]` is a parameter, `[...rest]` a catch-all, `index` the folder
// itself, and `_middleware.ts` wraps everything at and below its folder. The route list
// comes from the generated manifest (routes.gen.ts), so routing is explicit and type-checked.
// This module takes the manifest as an argument: lib/ never imports routes/.
import { Hono } from "hono";
import type { ComponentType } from "preact";
import type { AppContext } from "./app_context.ts";
import { errorToHttp, NotFoundError } from "../errors.ts";
import { json } from "./http.ts";

/** What every handler and middleware receives besides the Request. */
export interface RouteContext<Data = unknown> {
  app: AppContext;
  url: URL;
  params: Record<string, string>;
  /** Per-request state set by middleware (e.g. the authenticated flag). */
  state: Record<string, unknown>;
  /** The client's address as seen by the server (rate limits key on it). */
  remoteAddr: string;
  /** Render this route's page component with `data` (pages only). */
  render(data?: Data, init?: ResponseInit): Promise<Response>;
  /** Middleware only: run the rest of the chain. */
  next(): Promise<Response>;
}

export type Handler<Data = unknown> = (
  req: Request,
  ctx: RouteContext<Data>,
) => Response | Promise<Response>;
export type Handlers<Data = unknown> = Partial<
  Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler<Data>>
>;
export type Middleware = (req: Request, ctx: RouteContext) => Response | Promise<Response>;

export interface PageProps<Data = unknown> {
  data: Data;
  url: URL;
  params: Record<string, string>;
  state: Record<string, unknown>;
}

export interface RouteModule {
  handler?: Handlers<unknown> | Handler<unknown> | Middleware;
  /** A page component, or for `_app.tsx` the document shell (hence the loose props type). */
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any>;
}

export interface AppModuleProps {
  Component: ComponentType<Record<string, never>>;
  url: URL;
  state: Record<string, unknown>;
}

/** A route loaded on its first request, with what it exports read at generation time. */
export interface LazyRoute {
  load: () => Promise<RouteModule>;
  /** The methods its `handler` answers (["*"] for a function handler). */
  methods: string[];
  /** It default-exports a page component. */
  page: boolean;
}

export function isLazyRoute(r: RouteModule | LazyRoute): r is LazyRoute {
  return typeof (r as LazyRoute).load === "function";
}

export interface Manifest {
  routes: Record<string, RouteModule | LazyRoute>;
  /** Island modules, or loaders (the generated manifest imports them with the first page). */
  islands: Record<string, Record<string, unknown> | (() => Promise<Record<string, unknown>>)>;
  baseUrl: string;
}

/** Turns a page module + data into an HTML Response (the islands runtime provides it). */
export type PageRenderer = (args: {
  page: ComponentType<PageProps<unknown>>;
  app?: ComponentType<AppModuleProps>;
  props: PageProps<unknown>;
  init?: ResponseInit;
}) => Promise<Response>;

/** Convert a manifest key (`./routes/api/[id].ts`) to a Hono path (`/api/:id`). */
export function routePathFromFile(file: string): string {
  const rel = file.replace(/^\.\/routes/, "").replace(/\.(tsx?|jsx?)$/, "");
  const segments = rel.split("/").filter(Boolean).map((seg) => {
    const rest = seg.match(/^\[\.\.\.(\w+)\]$/);
    if (rest) return "*";
    const param = seg.match(/^\[(\w+)\]$/);
    return param ? `:${param[1]}` : seg;
  });
  if (segments.at(-1) === "index") segments.pop();
  return "/" + segments.join("/");
}

/** Sort key: static segments before parameters before catch-alls, so the most specific wins. */
function specificity(path: string): number[] {
  return path.split("/").map((s) => (s === "*" ? 2 : s.startsWith(":") ? 1 : 0));
}

function compareRoutes(a: string, b: string): number {
  const sa = specificity(a), sb = specificity(b);
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const x = sa[i] ?? -1, y = sb[i] ?? -1;
    if (x !== y) return x - y;
  }
  return a.localeCompare(b);
}

export interface MountOptions {
  manifest: Manifest;
  app: AppContext;
  renderPage: PageRenderer;
}

type ConnInfo = { remoteAddr?: { hostname?: string } };

/** Build the Hono app serving every route in the manifest. */
export function createRouter({ manifest, app, renderPage }: MountOptions): Hono {
  const hono = new Hono();
  const middlewares: Array<{ prefix: string; fn: Middleware }> = [];
  const routes: Array<{ path: string; file: string; mod: () => Promise<RouteModule> }> = [];
  const appEntry = manifest.routes["./routes/_app.tsx"];
  const appModule = (appEntry && !isLazyRoute(appEntry) ? appEntry.default : undefined) as
    | ComponentType<AppModuleProps>
    | undefined;

  for (const [file, entry] of Object.entries(manifest.routes)) {
    const base = file.split("/").at(-1)!;
    if (base.startsWith("_middleware.")) {
      if (isLazyRoute(entry)) throw new Error(`${file} must be imported statically`);
      const prefix = file.replace(/^\.\/routes/, "").replace(/\/_middleware\.\w+$/, "") || "";
      middlewares.push({ prefix, fn: entry.handler as Middleware });
    } else if (!base.startsWith("_")) {
      // A lazy route's module is imported once, on its first request.
      let loaded: Promise<RouteModule> | undefined;
      const mod = isLazyRoute(entry)
        ? () => (loaded ??= entry.load())
        : () => Promise.resolve(entry);
      routes.push({ path: routePathFromFile(file), file, mod });
    }
  }
  // Outer folders' middleware runs first.
  middlewares.sort((a, b) => a.prefix.length - b.prefix.length);
  routes.sort((a, b) => compareRoutes(a.path, b.path));

  const appliesTo = (prefix: string, path: string) =>
    prefix === "" || path === prefix || path.startsWith(prefix + "/");

  const makeContext = (
    req: Request,
    c: { env?: unknown },
    params: Record<string, string>,
  ): RouteContext => {
    const url = new URL(req.url);
    const state: Record<string, unknown> = {};
    const remoteAddr = (c.env as ConnInfo | undefined)?.remoteAddr?.hostname ?? "local";
    return {
      app,
      url,
      params,
      state,
      remoteAddr,
      render: () => Promise.reject(new Error("render() is only available in page routes")),
      next: () => Promise.reject(new Error("next() is only available in middleware")),
    };
  };

  /** The one place a thrown error becomes a response (500s are logged with their stack). */
  const errorResponse = (req: Request, err: unknown): Response => {
    const { status, body, headers } = errorToHttp(err);
    if (status >= 500) {
      app.log.error(`${req.method} ${new URL(req.url).pathname} failed`, {
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    }
    return json(body, status, headers);
  };

  /**
   * Run the middleware chain for `ctx.url.pathname`, ending in `final`. Errors become
   * responses at the level they are thrown, so outer middleware (security headers) still
   * sees and decorates them.
   */
  const runChain = (
    req: Request,
    ctx: RouteContext,
    final: () => Promise<Response>,
  ): Promise<Response> => {
    const chain = middlewares.filter((m) => appliesTo(m.prefix, ctx.url.pathname));
    const step = async (i: number): Promise<Response> => {
      try {
        if (i >= chain.length) return await final();
        return await chain[i].fn(req, { ...ctx, next: () => step(i + 1) });
      } catch (err) {
        return errorResponse(req, err);
      }
    };
    return step(0);
  };

  for (const { path, mod: load } of routes) {
    hono.all(path, async (c) => {
      const mod = await load();
      const page = mod.default;
      const handler = mod.handler;
      const req = c.req.raw;
      const ctx = makeContext(req, c, c.req.param() as Record<string, string>);
      ctx.render = (data?: unknown, init?: ResponseInit) => {
        if (!page) throw new Error(`Route ${path} has no page component to render`);
        return renderPage({
          page,
          app: appModule,
          props: { data, url: ctx.url, params: ctx.params, state: ctx.state },
          init,
        });
      };
      return await runChain(req, ctx, async () => {
        const method = req.method === "HEAD" ? "GET" : req.method;
        if (typeof handler === "function") return await handler(req, ctx);
        const fn = handler?.[method as keyof Handlers];
        if (fn) return await fn(req, ctx);
        if (page && method === "GET") return await ctx.render(undefined);
        return json({ error: `Method ${req.method} not allowed` }, 405);
      });
    });
  }

  // Unknown routes still pass through middleware (auth, headers), then answer a JSON 404.
  hono.all("*", async (c) => {
    const ctx = makeContext(c.req.raw, c, {});
    return await runChain(c.req.raw, ctx, () => Promise.reject(new NotFoundError()));
  });

  hono.onError((err, c) => errorResponse(c.req.raw, err));

  return hono;
}
