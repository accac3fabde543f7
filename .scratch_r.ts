import { renderMarkdown, preloadRenderers } from "./lib/markdown.ts";
const samples = [
  "# Hi\n\nSome *em* and **strong** and `code` $x^2$ and \\(y\\).\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n```ts\nconst a: number = 1;\n```\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n",
  "<img src=x onerror=alert(1)>",
  "[x](javascript:alert(1))",
  "![x](https://ex.com/a.png) ![y](/a.png) ![z](data:image/png;base64,AAAA)",
  "```\"><img src=x onerror=1>\nhi\n```",
  "text\n$$\nE=mc^2\n$$\nmore",
  "$\\href{javascript:alert(1)}{x}$ ok",
  "Costs $5 and $10 per ($x$) item",
  "<https://example.com> www.example.com",
];
console.log("--- before load");
console.log(renderMarkdown(samples[0]));
await preloadRenderers();
for (const s of samples) { console.log("---", JSON.stringify(s)); console.log(renderMarkdown(s)); }
