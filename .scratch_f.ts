import { preloadRenderers, renderMarkdown } from "./lib/markdown.ts";
import { createStreamRenderer } from "./lib/markdown_stream.ts";
await preloadRenderers();
let seed = Number(Deno.args[0] ?? 1);
const rand = () => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const lines = ["text line", "- item", "1. one", "2. two", "  indented two", "    code four", "```", "```py", "$$", "x^2", "| a | b |", "|---|---|", "> quote", "# head", "===", "---", "", "", "", "[r]: /x", "see [r]", "* star", "\\[", "\\]", "para $x$ end", "  - nested", "10. ten", "<div>", "***", "\t- tab item", "- ", "1.", ">", "  ```", "~~~", "| x |", "    ", " \t", "$$ y $$", "- [ ] task", "<https://x>", "  1. nested ordered", "   > nested quote", "[r]: /y 't'", "[x][r]", "Setext", "$", "a $b$", "     five", "2)", "-", "+ plus", "  ", "```ts", "\\(z\\)", "| 1 | 2 |"];
let bad = 0, resets = 0;
for (let n = 0; n < 3000; n++) {
  const k = 2 + Math.floor(rand() * 25);
  const doc = Array.from({ length: k }, () => lines[Math.floor(rand() * lines.length)]).join("\n");
  const r = createStreamRenderer();
  let i = 0; let stepBad = false;
  const hasRef = doc.includes("[r]:");
  let shown: string[] = [], tail = "";
  while (i < doc.length) {
    const c = 1 + Math.floor(rand() * 5);
    const u = r.push(doc.slice(i, i + c)); i += c;
    if (u.reset) shown = []; shown.push(...u.settled); tail = u.tail;
    if (!hasRef && !stepBad && shown.join("") + tail !== renderMarkdown(r.text)) { stepBad = true; console.log("STEP MISMATCH", JSON.stringify(r.text)); }
  }
  const u = await r.finish(); if (u.reset) shown = []; shown.push(...u.settled); tail = u.tail;
  if (shown.join("") + tail !== renderMarkdown(doc)) { bad++; console.log("FINAL MISMATCH", JSON.stringify(doc)); }
  if (r.stats.resets && !hasRef) { resets++; if (resets < 6) console.log("RESET", JSON.stringify(doc)); }
  if (stepBad) bad++;
  if (bad > 8) break;
}
console.log({ bad, resets });
