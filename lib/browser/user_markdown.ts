// Browser-safe: imports nothing from Deno or the database.
// `render_user_markdown`: the person's own messages rendered as markdown by the renderer the
// answers use (lib/markdown/render.ts: raw HTML stays text, every URL is vetted, so what the
// person typed stays inert under the page's CSP). The typed text is kept for each bubble, so
// turning the setting off puts it back exactly. Loaded by lib/browser/transcript_display.ts
// once the setting is on; follows new, live and older turns as they appear.
import { displayOn } from "./transcript_display.ts";
import { watchTranscript } from "./transcript_watch.ts";

/** What each rendered bubble said as typed. */
const typed = new WeakMap<HTMLElement, string>();
let stop: (() => void) | null = null;
let md: Promise<typeof import("../markdown/render.ts")> | null = null;

async function renderAll(): Promise<void> {
  const todo = [...document.querySelectorAll<HTMLElement>(".msg-user-text:not([data-md])")];
  if (!todo.length) return;
  md ??= import("../markdown/render.ts");
  const r = await md;
  await r.ensureRenderers(todo.map((el) => el.textContent ?? "").join("\n\n"));
  if (!displayOn("data-user-markdown")) return; // turned off while the renderer loaded
  for (const el of todo) {
    if (el.hasAttribute("data-md") || !el.isConnected) continue;
    const text = el.textContent ?? "";
    typed.set(el, text);
    el.innerHTML = r.renderMarkdown(text);
    el.dataset.md = "";
    el.classList.add("prose");
  }
}

function restoreAll(): void {
  for (const el of document.querySelectorAll<HTMLElement>(".msg-user-text[data-md]")) {
    el.textContent = typed.get(el) ?? el.textContent;
    delete el.dataset.md;
    el.classList.remove("prose");
  }
}

/** Apply the setting as painted now. */
export function refresh(): void {
  if (!displayOn("data-user-markdown")) {
    stop?.();
    stop = null;
    restoreAll();
    return;
  }
  stop ??= watchTranscript(() => void renderAll());
  void renderAll();
}
