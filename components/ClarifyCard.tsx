// The agent's clarifying question, waiting for the user: the question, its choices as
// buttons, and a free-text answer → POST /api/clarify/respond. A question that is no longer
// open (409: answered elsewhere, timed out, superseded) clears itself.
import { useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import type { ClarifyRequest } from "../lib/shared/transcript_model.ts";
import { t } from "../lib/i18n/t.ts";

export interface ClarifyCardProps {
  sessionId: string;
  clarify: ClarifyRequest;
  /** Answered or stale: the owner removes the card. */
  onSettled: () => void;
}

export function ClarifyCard({ sessionId, clarify, onSettled }: ClarifyCardProps) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function answer(response: string) {
    if (busy || !response.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await api("POST", "/api/clarify/respond", {
        session_id: sessionId,
        clarify_id: clarify.clarify_id,
        response,
      });
      onSettled();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) onSettled();
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const id = `clarify-${clarify.clarify_id}`;
  return (
    <section class="clarify-card" aria-labelledby={id} data-clarify-id={clarify.clarify_id}>
      <p class="clarify-kicker">{t("transcript.clarifyKicker")}</p>
      <p class="clarify-question" id={id}>{clarify.question}</p>
      {clarify.choices?.length
        ? (
          <div class="clarify-choices">
            {clarify.choices.map((c) => (
              <button
                type="button"
                class="btn"
                key={c}
                disabled={busy}
                onClick={() => answer(c)}
              >
                {c}
              </button>
            ))}
          </div>
        )
        : null}
      <form
        class="clarify-form"
        onSubmit={(e) => {
          e.preventDefault();
          answer(text);
        }}
      >
        <label class="visually-hidden" for={`${id}-answer`}>
          {t("transcript.clarifyAnswerLabel")}
        </label>
        <input
          id={`${id}-answer`}
          class="clarify-input"
          type="text"
          maxLength={20000}
          placeholder={clarify.choices?.length
            ? t("transcript.clarifyOther")
            : t("transcript.clarifyAnswerLabel")}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" class="btn btn-primary" disabled={busy || !text.trim()}>
          {t("transcript.clarifyAnswer")}
        </button>
      </form>
      {error ? <p class="card-error" role="alert">{error}</p> : null}
    </section>
  );
}
