// The settled part of a conversation, server-rendered so the first paint needs no JavaScript:
// the latest whole turns (lib/server/transcript_page.ts), each as a TurnView with its Activity
// disclosure hydrated as an island, and above them the marker from which the Transcript
// island loads older turns as the reader scrolls up.
import { KATEX_CSS_HREF } from "../lib/markdown/render.ts";
import type { TranscriptPage } from "../lib/server/transcript_page.ts";
import { TurnView } from "./TurnView.tsx";
import { t } from "../lib/i18n/t.ts";

export function MessageList({ page }: { page: TranscriptPage }) {
  return (
    <div class="turns" id="transcript-history" data-session-id={page.sessionId}>
      {page.math ? <link rel="stylesheet" href={KATEX_CSS_HREF} /> : null}
      {page.olderBefore !== null
        ? (
          <div id="transcript-older" class="turns-older" data-before={page.olderBefore}>
            <button type="button" class="turns-older-button">{t("transcript.loadEarlier")}</button>
          </div>
        )
        : null}
      {page.turns.map((turn, i) => (
        <TurnView
          key={turn.key}
          sessionId={page.sessionId}
          turn={turn}
          last={!page.live && i === page.turns.length - 1}
        />
      ))}
    </div>
  );
}
