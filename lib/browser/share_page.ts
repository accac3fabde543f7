// Browser-safe: imports nothing from Deno or the database.
// The one script of the public share page (routes/share/[token].tsx), loaded only when its
// snapshot holds a mermaid diagram: the diagrams are drawn as in the console (inert images, the
// library loaded on demand). Not a page script: the console's pages never load it. It imports
// nothing statically, so it shares no chunk with the console's first load (a new shared chunk
// there would cost every console page).
const blocks = [...document.querySelectorAll("pre.code-block > code.language-mermaid")]
  .map((code) => code.parentElement!);
if (blocks.length) void import("./mermaid_render.ts").then((m) => m.renderBlocks(blocks));
