// The diff of a write_file/patch call (FileDiff, computed on the server by lib/tools/file_diff.ts):
// a unified diff with old and new line numbers, added lines green and removed red. Loaded on
// demand by DiffSlot.tsx; the text goes in as Preact text nodes (never markup).
import type { FileDiff } from "../../lib/shared/chat_events.ts";
import { t } from "../../lib/i18n/t.ts";

interface Row {
  kind: "add" | "del" | "ctx" | "hunk";
  old: number | null;
  new: number | null;
  text: string;
}

/** Number each line of each hunk: old numbers for context/removed, new for context/added. */
export function diffRows(diff: FileDiff): Row[] {
  const rows: Row[] = [];
  for (const h of diff.hunks) {
    rows.push({
      kind: "hunk",
      old: null,
      new: null,
      text: `@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`,
    });
    let o = h.old_start;
    let n = h.new_start;
    for (const line of h.lines) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === "+") rows.push({ kind: "add", old: null, new: n++, text });
      else if (sign === "-") rows.push({ kind: "del", old: o++, new: null, text });
      else rows.push({ kind: "ctx", old: o++, new: n++, text });
    }
  }
  return rows;
}

export default function DiffView({ diff }: { diff: FileDiff }) {
  return (
    <div class="diff-view" data-diff-path={diff.path}>
      <div class="diff-head">
        <span class="diff-path">{diff.path}</span>
        <span class="diff-stat">
          {diff.status === "added" ? `${t("activity.diffNewFile")} · ` : ""}
          <span class="diff-added">+{diff.added}</span>{" "}
          <span class="diff-removed">−{diff.removed}</span>
        </span>
      </div>
      <table class="diff-table">
        <tbody>
          {diffRows(diff).map((r, i) => (
            <tr key={i} class={`diff-row diff-${r.kind}`}>
              <td class="diff-num">{r.old ?? ""}</td>
              <td class="diff-num">{r.new ?? ""}</td>
              <td class="diff-sign">
                {r.kind === "add" ? "+" : r.kind === "del" ? "−" : r.kind === "hunk" ? "" : " "}
              </td>
              <td class="diff-text">{r.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff.truncated ? <p class="diff-more">{t("activity.diffTruncated")}</p> : null}
    </div>
  );
}
