// Browser-safe: imports nothing from Deno or the database.
// The console's cross-component browser vocabulary: window CustomEvents named `hermes:*`.
// Islands and page scripts (lib/browser/pages/*) never import each other; they talk only through
// these events. Every event is listed here with its detail type; add yours before using it.

/** Theme preference as stored in settings (`theme`); "system" follows prefers-color-scheme. */
export type ThemePreference = "light" | "dark" | "system";

/** Event name → detail type. */
export interface HermesEvents {
  /**
   * A run was started (POST /api/chat/start answered). Cancelable: the composer navigates to
   * the session unless a live transcript calls preventDefault(). The sidebar refreshes.
   */
  "hermes:chat-started": {
    session_id: string;
    stream_id: string;
    turn_id: string;
    title: string;
    message: string;
    /** What started it: a message (default), `/retry` (no new user message) or `/compress`. */
    kind?: "chat" | "retry" | "compress";
    /** The files sent with the message (POST /api/upload answers), for the user bubble. */
    attachments?: Array<
      { filename: string; path: string; size: number; mime: string; is_image: boolean }
    >;
  };
  /**
   * Whether a session has a run in progress: the Transcript announces it when a stream starts
   * and ends (or is found active on load). The composer shows Stop and holds sends meanwhile.
   */
  "hermes:run-state": { session_id: string; stream_id: string; active: boolean };
  /**
   * A command rewrote a session's messages (`/clear`, `/undo`). Cancelable: the Transcript
   * re-renders the session and calls preventDefault(); otherwise the composer reloads the page.
   */
  "hermes:session-rewritten": { session_id: string; reason: "clear" | "undo" };
  /** The composer changed a session's model or workspace (the top bar follows). */
  "hermes:session-updated": {
    session_id: string;
    model: string | null;
    model_provider: string | null;
    workspace: string;
  };
  /** A run finished, whatever the reason (stream_end, cancel, apperror). The sidebar refreshes. */
  "hermes:chat-ended": {
    session_id: string;
    stream_id: string;
    reason: "done" | "cancel" | "error";
    /** The answer's last prose as the model left it (plain text), for the announcer. */
    answer?: string;
    /** What went wrong (the error notice's title and message), when `reason` is "error". */
    error?: string;
  };
  /**
   * Say `text` to screen readers through the page's live region (lib/browser/announcer.ts):
   * politely, or at once when `urgent` (an approval waits, a failure).
   */
  "hermes:announce": { text: string; urgent?: boolean };
  /**
   * The session's "skip approvals" switch (`/yolo`) changed: the Transcript shows the state.
   * The composer dispatches it after POST /api/session/yolo answers.
   */
  "hermes:skip-approvals": { session_id: string; enabled: boolean };
  /**
   * A session got a (new) title: from the stream's `title` event, or a rename on the sessions
   * feed (the model's title written after the answer, a rename elsewhere) relayed by the sidebar.
   */
  "hermes:session-title": { session_id: string; title: string };
  /**
   * Sessions changed in a way the sidebar cannot see (imported, cleared, deleted from
   * elsewhere): the sidebar re-fetches its list. `session_id` when one session is concerned.
   */
  "hermes:sessions-changed": { session_id?: string; reason?: string };
  /**
   * Change the theme: lib/browser/pages/layout.ts applies it at once and saves it to settings
   * (POST /api/settings {theme}) unless `persist` is false (the sender saved it already).
   * The topbar toggle dispatches it; the Control Center may too.
   */
  "hermes:theme-change": { theme: ThemePreference; persist?: boolean };
  /**
   * Settings were saved (the Control Center, onboarding): `settings` is POST /api/settings's
   * answer (secrets masked), `changed` the fields sent. The composer follows `send_key`, the
   * transcript `show_thinking`.
   */
  "hermes:settings-changed": { changed: string[]; settings: Record<string, unknown> };
  /**
   * Open the Control Center (lib/browser/pages/control_center.ts), on `tab` when given
   * (components/ControlCenter.tsx CONTROL_TABS: "providers", "mcp", "system", …).
   */
  "hermes:open-control-center": { tab?: string };
  /** Open or close the workspace panel (lib/browser/pages/workspace_panel.ts applies it). */
  "hermes:workspace-panel": { open: boolean };
  /**
   * The person changed a session's repository or files from the page (a commit or other Git tab
   * action, a rollback): the panel re-reads its tree and git badge (lib/browser/workspace/git_badge.ts).
   */
  "hermes:git-changed": { session_id: string };
  /** A turn's file changes were rolled back (lib/browser/rollback_dialog.ts): it offers it no more. */
  "hermes:turn-rolled-back": { session_id: string; turn_id: string };
  /** Open the workspace panel on a file of the open session's workspace and preview it. */
  "hermes:open-file": { path: string };
  /**
   * A session's standing goal changed outside a run (`/goal` set, pause, resume, clear): the
   * top bar's goal chip fetches it again (it also follows run events by itself).
   */
  "hermes:goal-changed": { session_id: string };
  /**
   * The server started a run of this session by itself (a standing goal continues): the live
   * transcript follows it like one the composer started. Sent by lib/browser/goal_chip.ts.
   */
  "hermes:run-discovered": { session_id: string; stream_id: string };
  /** The active profile (new chats) changed, from the composer's chip or the Control Center. */
  "hermes:profile-changed": { name: string };
  /**
   * The page lost its server (it said it was going away, or stopped answering) or reached it
   * again (lib/browser/connection_status.ts, which shows the sign and, on return, also sends
   * `hermes:sessions-changed` so the sidebar re-reads what changed meanwhile).
   */
  "hermes:connection": { online: boolean };
}

export type HermesEventName = keyof HermesEvents;

/** Dispatch a `hermes:*` event on window; returns false when a listener called preventDefault. */
export function emitHermesEvent<K extends HermesEventName>(
  name: K,
  detail: HermesEvents[K],
  opts: { cancelable?: boolean } = {},
): boolean {
  return globalThis.dispatchEvent(
    new CustomEvent(name, { detail, cancelable: opts.cancelable ?? false }),
  );
}

/** Listen to a `hermes:*` event on window; returns the function that removes the listener. */
export function onHermesEvent<K extends HermesEventName>(
  name: K,
  fn: (detail: HermesEvents[K], event: CustomEvent<HermesEvents[K]>) => void,
): () => void {
  const listener = (e: Event) => {
    const ev = e as CustomEvent<HermesEvents[K]>;
    fn(ev.detail, ev);
  };
  globalThis.addEventListener(name, listener);
  return () => globalThis.removeEventListener(name, listener);
}
