// "Undo this change" (one tool call) and "Roll back this turn": a quiet button that loads the
// rollback dialog on demand (lib/browser/rollback_dialog.ts: diff preview, then restore).
// Tools that can change files are the ones checkpointed (lib/checkpoints/tool_checkpoints.ts).

/** Tool names whose calls are checkpointed (mirrors CHECKPOINTED_TOOLS on the server). */
export const UNDOABLE_TOOLS = new Set(["write_file", "patch", "terminal"]);

export function RollbackButton(
  { sessionId, toolCallId, turnId, label }: {
    sessionId: string;
    toolCallId?: string;
    turnId?: string;
    label: string;
  },
) {
  return (
    <button
      type="button"
      class="rollback-btn"
      data-rollback={toolCallId ? "call" : "turn"}
      onClick={(e) => {
        e.stopPropagation();
        void import("../lib/browser/rollback_dialog.ts").then((m) =>
          m.openRollbackDialog({ sessionId, toolCallId, turnId })
        );
      }}
    >
      {label}
    </button>
  );
}
