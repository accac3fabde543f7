// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The small always-on parts of the chat page, in one entry so each costs no chunk of its own:
// page-wide keys (Esc stops, Ctrl/Cmd+K switches), the approval inbox badge, the context ring
// the "Show thinking" toggle, "Jump to latest" and the transcript's display preferences. Their
// heavy halves (switcher, inbox panel, badges, outline…) load on demand.
import { installChatKeys } from "../chat_keys.ts";
import { installApprovalBadge } from "../approval_inbox_badge.ts";
import { installContextRing } from "../context_ring.ts";
import { installThinkingToggle } from "../thinking_toggle.ts";
import { installJumpToLatest } from "../jump_latest.ts";
import { installTranscriptDisplay } from "../transcript_display.ts";

installChatKeys();
installApprovalBadge();
installContextRing();
installThinkingToggle();
installJumpToLatest();
installTranscriptDisplay();
