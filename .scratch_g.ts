import { preloadRenderers, renderMarkdown, lexMarkdown } from "./lib/markdown.ts";
import { createStreamRenderer } from "./lib/markdown_stream.ts";
await preloadRenderers();
const show = (s: string) => lexMarkdown(s).map((t) => `  ${t.type}:${JSON.stringify(t.raw)}`).join("\n");
for (const doc of [JSON.parse(Deno.args[0])]) {
const r = createStreamRenderer();
let shown: string[] = []; let tail = "";
let prev = "";
for (const c of doc) { const u = r.push(c); if (u.reset) shown = []; shown.push(...u.settled); tail = u.tail;
  if (shown.join("") + tail !== renderMarkdown(r.text)) { console.log("MISMATCH at", JSON.stringify(r.text)); console.log("prev lex:\n" + show(prev)); console.log("full lex:\n" + show(r.text)); console.log("settled:", JSON.stringify(shown)); break; }
  prev = r.text; }
}
