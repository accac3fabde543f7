// Browser-safe: imports nothing from Deno or the database.
// A ```mermaid block the model is still writing: as code it would flash its half-written source
// (first as a block labelled "m", while the fence's info line is typed). For the live tail alone
// (never for settled blocks nor the final render) such a block is shown as a quiet placeholder;
// it is drawn once complete (lib/browser/mermaid_watch.ts).
import type { Token, Tokens } from "marked";
import { escapeHtml } from "./render.ts";

const DIAGRAM = "mermaid";

/** A fenced block that is, or may still become (`` ```mer ``), a mermaid diagram. */
export function isPendingDiagram(token: Token): boolean {
  if (token.type !== "code") return false;
  const code = token as Tokens.Code;
  if (code.codeBlockStyle === "indented") return false;
  const label = (code.lang ?? "").trim().split(/\s+/)[0].toLowerCase();
  if (label === DIAGRAM) return true;
  // The info line is complete once a newline follows it; until then "m" may become "mermaid".
  return label !== "" && !code.raw.includes("\n") && DIAGRAM.startsWith(label);
}

/**
 * The HTML of the tail `tokens`, with each pending diagram replaced by a placeholder that reads
 * `label` (runs of other tokens are rendered together by `render`).
 */
export function renderWithDiagramPlaceholders(
  tokens: Token[],
  label: string,
  render: (tokens: Token[]) => string,
): string {
  if (!tokens.some(isPendingDiagram)) return render(tokens);
  let html = "";
  let run: Token[] = [];
  for (const token of tokens) {
    if (!isPendingDiagram(token)) {
      run.push(token);
      continue;
    }
    if (run.length) html += render(run);
    run = [];
    html += `<p class="md-diagram-pending">${escapeHtml(label)}</p>\n`;
  }
  return run.length ? html + render(run) : html;
}
