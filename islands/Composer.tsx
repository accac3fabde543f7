// The command surface: an auto-growing textarea and a Send button. Sending creates a session
// when there is none (POST /api/session/new), starts the run (POST /api/chat/start) and
// announces it with a cancelable `hermes:chat-started` window event; when no live transcript
// takes it over (preventDefault), the page navigates to the session.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/api_client.ts";
import { Icon } from "../components/Icon.tsx";

export interface ComposerProps {
  /** The open session, or null on the empty state (a session is created on first send). */
  sessionId: string | null;
  /** Project of the new session (the sidebar's active project filter), if any. */
  projectId?: string | null;
  /** Model shown in the composer's footer chip. */
  modelLabel?: string | null;
  placeholder?: string;
}

/** What `hermes:chat-started` carries (POST /api/chat/start's answer plus the message). */
export interface ChatStartedDetail {
  session_id: string;
  stream_id: string;
  turn_id: string;
  title: string;
  message: string;
}

/** Textarea height limit in px before it scrolls (about twelve lines). */
const MAX_HEIGHT = 280;

export default function Composer(
  { sessionId, projectId = null, modelLabel = null, placeholder = "Message Hermes…" }:
    ComposerProps,
) {
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);

  // Grow with the text up to MAX_HEIGHT, then scroll; shrink back when text is removed.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
    el.style.overflowY = el.scrollHeight > MAX_HEIGHT ? "auto" : "hidden";
  }, [draft]);

  const canSend = draft.trim().length > 0 && !sending;

  async function send() {
    const message = draft.trim();
    if (!message || sending) return;
    setSending(true);
    setError(null);
    try {
      let sid = sessionId;
      if (!sid) {
        const created = await api<{ session: { session_id: string } }>(
          "POST",
          "/api/session/new",
          projectId ? { project_id: projectId } : {},
        );
        sid = created.session.session_id;
      }
      const started = await api<Omit<ChatStartedDetail, "message">>("POST", "/api/chat/start", {
        session_id: sid,
        message,
      });
      setDraft("");
      const event = new CustomEvent<ChatStartedDetail>("hermes:chat-started", {
        cancelable: true,
        detail: { ...started, message },
      });
      if (globalThis.dispatchEvent(event)) {
        location.assign(`/?session=${encodeURIComponent(started.session_id)}`);
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : `Could not send: ${String(err)}`);
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      class="composer"
      data-state={sending ? "sending" : "idle"}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label class="visually-hidden" for="composer-input">Message</label>
      <textarea
        id="composer-input"
        ref={area}
        class="composer-input"
        name="message"
        rows={1}
        placeholder={placeholder}
        value={draft}
        autofocus
        aria-describedby={error ? "composer-error" : undefined}
        onInput={(e) => setDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div class="composer-bar">
        <span class="composer-hint">
          {modelLabel
            ? (
              <span class="chip chip-quiet" title="Model">
                <Icon name="cpu" size={13} />
                {modelLabel}
              </span>
            )
            : null}
          <span class="composer-keys">Enter to send · Shift+Enter for a new line</span>
        </span>
        <button
          type="submit"
          class="btn-send"
          disabled={!canSend}
          aria-label={sending ? "Sending" : "Send message"}
          title="Send (Enter)"
        >
          <Icon name="arrowUp" size={16} />
        </button>
      </div>
      {error ? <p id="composer-error" class="composer-error" role="alert">{error}</p> : null}
    </form>
  );
}
