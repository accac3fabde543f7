// The quiet "3 files changed" note on a finished turn's Activity row: counts the distinct files
// its write_file/patch calls changed; a click opens their diffs (FilesChangedDialog.tsx, loaded
// then). Nothing for a turn that changed no file.
import type { ToolView } from "../../lib/shared/transcript_turns.ts";

const FILE_TOOLS = new Set(["write_file", "patch"]);

/** The completed file-changing calls of a turn and the distinct paths they touched. */
export function changedFiles(tools: readonly ToolView[]): { ids: string[]; paths: string[] } {
  const done = tools.filter((t) => FILE_TOOLS.has(t.name) && t.status === "completed");
  return { ids: done.map((t) => t.id), paths: [...new Set(done.map((t) => t.target))] };
}

export function FilesChanged({ sessionId, tools }: { sessionId: string; tools: ToolView[] }) {
  const { ids, paths } = changedFiles(tools);
  if (!paths.length) return null;
  return (
    <button
      type="button"
      class="files-changed"
      data-files-changed
      onClick={(e) => {
        // Inside the Activity row's summary: open the diffs, not the row.
        e.preventDefault();
        e.stopPropagation();
        void import("./FilesChangedDialog.tsx").then((m) => m.openFilesChanged(sessionId, ids));
      }}
    >
      {paths.length === 1 ? "1 file changed" : `${paths.length} files changed`}
    </button>
  );
}
