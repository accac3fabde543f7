// `workspace://path` links in answers: allowed by the markdown URL allowlist (links only),
// parsed to a workspace-relative path for the panel, and nothing else slips through with them.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { safeUrl, workspacePathOf } from "../lib/markdown/urls.ts";
import { renderMarkdown } from "../lib/markdown/render.ts";

Deno.test("safeUrl() allows workspace:// links but never as images", () => {
  deepStrictEqual(safeUrl("workspace://src/main.ts", "link"), {
    href: "workspace://src/main.ts",
    remote: false,
  });
  strictEqual(safeUrl("workspace://src/a.png", "image"), null);
  // Other schemes hidden behind it stay refused.
  strictEqual(safeUrl("javascript:alert(1)//workspace://x", "link"), null);
  strictEqual(safeUrl("javascript:workspace://x", "link"), null);
});

Deno.test("workspacePathOf() gives the relative path, or null for anything odd", () => {
  const cases: Array<[string, string | null]> = [
    ["workspace://src/main.ts", "src/main.ts"],
    ["workspace:///notes/a%20b.md", "notes/a b.md"],
    ["WORKSPACE://README.md#intro", "README.md"],
    ["workspace:docs/x.md", "docs/x.md"],
    ["workspace://", null],
    ["workspace://../etc/passwd", null],
    ["workspace://a/../../b", null],
    ["workspace://a%00b", null],
    ["workspace://a%0Ab", null],
    ["workspace://a\\b", null],
    ["workspace://%E0%A4%A", null],
    ["https://example.com/x", null],
    ["javascript:alert(1)", null],
  ];
  for (const [href, want] of cases) strictEqual(workspacePathOf(href), want, href);
});

Deno.test("renderMarkdown() keeps a workspace:// link (the page's click handler opens it)", () => {
  const html = renderMarkdown("See [main](workspace://src/main.ts).");
  ok(html.includes('href="workspace://src/main.ts"'), html);
  ok(!renderMarkdown("![x](workspace://a.png)").includes("<img"));
});
