// Control Center › Conversation: export the open conversation (JSON, Markdown, HTML through
// GET /api/session/export), import a JSON export as a new conversation, and clear the open
// one after a confirmation. Then the Voice section (./VoiceSection.tsx).
import type { AppContext } from "../../lib/server/app_context.ts";
import { findSession } from "../../lib/sessions/sessions.ts";
import { t } from "../../lib/i18n/t.ts";
import { ConfirmAction, Section, StatusLine } from "./parts.tsx";
import { loadVoice, type VoiceData, VoiceSection } from "./VoiceSection.tsx";

export interface ConversationData {
  session: { session_id: string; title: string; message_count: number } | null;
  voice?: VoiceData;
}

export async function loadConversation(
  app: Pick<AppContext, "db" | "config">,
  sessionId: string | null,
): Promise<ConversationData> {
  const s = sessionId ? await findSession(app.db, sessionId) : null;
  return {
    session: s
      ? { session_id: s.session_id, title: s.title, message_count: s.message_count }
      : null,
    voice: await loadVoice(app),
  };
}

/** The export formats; `label` is the format's own name, `hintKey` a catalog key. */
const FORMATS = [
  { format: "json", label: "JSON", hintKey: "control.formatJsonHint" }, // i18n-ignore: format name
  { format: "md", label: "Markdown", hintKey: "control.formatMdHint" }, // i18n-ignore: format name
  { format: "html", label: "HTML", hintKey: "control.formatHtmlHint" }, // i18n-ignore: format name
] as const;

export function ConversationPanel({ data }: { data: ConversationData }) {
  const s = data.session;
  return (
    <>
      <Section
        hook="export"
        title={t("control.export")}
        description={s
          ? (
            <>
              <span class="cc-quote">{s.title}</span> ·{" "}
              {t("control.messageCount", { count: s.message_count })}
            </>
          )
          : t("control.exportNone")}
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
                  title={t("control.downloadAs", { format: f.label, hint: t(f.hintKey) })}
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
        title={t("control.import")}
        description={t("control.importHint")}
      >
        <div class="cc-actions">
          <label class="visually-hidden" for="cc-import-file">{t("control.importFile")}</label>
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
        title={t("control.clear")}
        description={s ? t("control.clearHint") : t("control.clearNone")}
      >
        {s
          ? (
            <ConfirmAction
              label={t("control.clearAsk")}
              question={t("control.clearQuestion", { count: s.message_count })}
              confirm={t("control.clearConfirm")}
              action="clear-session"
              data={{ "session-id": s.session_id }}
            />
          )
          : (
            <button type="button" class="btn cc-btn cc-btn-danger" disabled>
              {t("control.clearAsk")}
            </button>
          )}
        <StatusLine hook="clear" />
      </Section>
      {data.voice ? <VoiceSection data={data.voice} /> : null}
    </>
  );
}
