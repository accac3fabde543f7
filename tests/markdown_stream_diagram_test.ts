// Streaming diagrams: a ```mermaid block still being written (its info line too: "```m") shows
// as a quiet placeholder in the live tail, never as a half-written code block; once it settles,
// and in the final render, it is the code block the diagram is drawn from.
import { ok, strictEqual } from "node:assert/strict";
import { createStreamRenderer } from "../lib/markdown/stream.ts";
import { lexMarkdown, renderMarkdown } from "../lib/markdown/render.ts";
import { isPendingDiagram } from "../lib/markdown/stream_diagram.ts";

const PLACEHOLDER = '<p class="md-diagram-pending">Diagram…</p>';

Deno.test("createStreamRenderer() shows a mermaid block being written as a placeholder", async () => {
  const r = createStreamRenderer({ diagramPlaceholder: "Diagram…" });
  r.push("The flow:\n\n");
  for (const part of ["```", "m", "ermaid", "\nflowchart LR\n", "  A --> B\n", "```\n"]) {
    const u = r.push(part);
    if (part === "```") continue; // a bare fence may be any code yet
    ok(u.tail.includes(PLACEHOLDER), `after ${JSON.stringify(part)}: ${u.tail}`);
    ok(!u.tail.includes("<pre"), `no code block: ${u.tail}`);
  }
  const settled = r.push("\nAfter it.");
  ok(settled.settled.join("").includes('class="hljs language-mermaid"'), "settles as code");
  ok(!settled.tail.includes(PLACEHOLDER), settled.tail);
  await r.finish();
  strictEqual(r.html, renderMarkdown(r.text));
});

Deno.test("createStreamRenderer() keeps other code, and every block without the option, as code", () => {
  const python = createStreamRenderer({ diagramPlaceholder: "Diagram…" });
  ok(python.push("```python\nprint(1)\n").tail.includes("<pre"));
  // "```m" then a newline: the label is "m", a finished info line, not a diagram in the making.
  const m = createStreamRenderer({ diagramPlaceholder: "Diagram…" });
  ok(m.push("```m\nx\n").tail.includes('<span class="code-lang">m</span>'));
  const plain = createStreamRenderer();
  ok(plain.push("```mermaid\nflowchart LR\n").tail.includes("language-mermaid"));
});

Deno.test("isPendingDiagram() knows a mermaid fence, also by a prefix of its unfinished label", () => {
  const first = (src: string) => lexMarkdown(src)[0];
  ok(isPendingDiagram(first("```mermaid\na")));
  ok(isPendingDiagram(first("```Mermaid title\na\n```")));
  ok(isPendingDiagram(first("```mer")));
  ok(!isPendingDiagram(first("```mark")));
  ok(!isPendingDiagram(first("```")));
  ok(!isPendingDiagram(first("    mermaid indented")));
  ok(!isPendingDiagram(first("mermaid")));
});
