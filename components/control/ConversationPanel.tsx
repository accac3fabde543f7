// Control Center › Conversation: export the open conversation (JSON, Markdown, HTML through
// GET /api/session/export), import a JSON export as a new conversation, and clear the open
// one after a confirmation.
import type { AppContext } from "../../lib/server/app_context.ts";
import { findSession } from "../../lib/sessions/sessions.ts";
import { ConfirmAction, Section, StatusLine } from "./parts.tsx";

export interface ConversationData {
  session: { session_id: string; title: string; message_count: number } | null;
}

export function loadConversation(
  app: Pick<AppContext, "db">,
  sessionId: string | null,
): ConversationData {
  const s = sessionId ? findSession(app.db, sessionId) : null;
  return {
    session: s
      ? { session_id: s.session_id, title: s.title, message_count: s.message_count }
      : null,
  };
}

const FORMATS = [
  { format: "json", label: "JSON", hint: "lossless, re-importable" },
  { format: "md", label: "Markdown", hint: "readable text" },
  { format: "html", label: "HTML", hint: "a standalone page" },
] as const;

export function ConversationPanel({ data }: { data: ConversationData }) {
  const s = data.session;
  const plural = (n: number) => `${n} message${n === 1 ? "" : "s"}`;
  return (
    <>
      <Section
        hook="export"
        title="Export"
        description={s
          ? (
            <>
              <span class="cc-quote">{s.title}</span> · {plural(s.message_count)}
            </>
          )
          : "Open a conversation to export it."}
      >
        <div class="cc-actions">
          {FORMATS.map((f) =>
            s
              ? (
                <a
                  key={f.format}
                  class="btn cc-btn"
                  href={`/api/session/export?session_id=${s.session_id}&format=${f.format}`}
                  download={`hermes-${s.session_id}.${f.format}`}
                  data-cc-export={f.format}
                  title={`Download as ${f.label}: ${f.hint}`}
                >
                  {f.label}
                </a>
              )
              : (
                <button key={f.format} type="button" class="btn cc-btn" disabled>
                  {f.label}
                </button>
              )
          )}
        </div>
      </Section>

      <Section
        hook="import"
        title="Import"
        description="Open a JSON export (from this console or Hermes WebUI) as a new conversation."
      >
        <div class="cc-actions">
          <label class="visually-hidden" for="cc-import-file">Conversation file (JSON)</label>
          <input
            id="cc-import-file"
            class="cc-file"
            type="file"
            accept=".json,application/json"
            data-cc-import
          />
        </div>
        <StatusLine hook="import" />
      </Section>

      <Section
        hook="clear"
        title="Clear"
        description={s
          ? "Remove every message of this conversation. Its title, workspace and model stay."
          : "Open a conversation to clear it."}
      >
        {s
          ? (
            <ConfirmAction
              label="Clear conversation…"
              question={<>Remove all {plural(s.message_count)}? This cannot be undone.</>}
              confirm="Clear messages"
              action="clear-session"
              data={{ "session-id": s.session_id }}
            />
          )
          : (
            <button type="button" class="btn cc-btn cc-btn-danger" disabled>
              Clear conversation…
            </button>
          )}
        <StatusLine hook="clear" />
      </Section>
    </>
  );
}
