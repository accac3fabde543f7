// The quiet "3 files changed" note on a finished turn's Activity row: counts the distinct files
// its write_file/patch calls changed; a click opens their diffs (FilesChangedDialog.tsx, loaded
// then). Nothing for a turn that changed no file.
import type { ToolView } from "../../lib/shared/transcript_turns.ts";
import { t } from "../../lib/i18n/t.ts";

const FILE_TOOLS = new Set(["write_file", "patch"]);

/** The completed file-changing calls of a turn and the distinct paths they touched. */
export function changedFiles(tools: readonly ToolView[]): { ids: string[]; paths: string[] } {
  const done = tools.filter((x) => FILE_TOOLS.has(x.name) && x.status === "completed");
  return { ids: done.map((x) => x.id), paths: [...new Set(done.map((x) => x.target))] };
}

export function FilesChanged({ sessionId, tools }: { sessionId: string; tools: ToolView[] }) {
  const { ids, paths } = changedFiles(tools);
  if (!paths.length) return null;
  return (
    <button
      type="button"
      class="files-changed"
      data-files-changed
      onClick={() => {
        void import("./FilesChangedDialog.tsx").then((m) => m.openFilesChanged(sessionId, ids));
      }}
    >
      {t("activity.filesChanged", { count: paths.length })}
    </button>
  );
}
