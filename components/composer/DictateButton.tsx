// The composer's microphone: press to dictate, press again to stop; the words land in the draft
// at the caret. Quiet like the other footer tools; only while it listens does it take the accent.
// Rendered inside the Composer island; the engines (the browser's speech recognition, else a
// recording transcribed by POST /api/transcribe) load on the first press
// (lib/browser/voice/dictation.ts), so the page's first JavaScript stays small. Hidden where
// the browser can neither recognize speech nor record.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import type { Dictation, DictationPhase } from "../../lib/browser/voice/dictation.ts";
import { t } from "../../lib/i18n/t.ts";
import { Icon } from "../Icon.tsx";

/** The browser can dictate: it recognizes speech, or it can record the microphone. */
function canDictate(): boolean {
  const g = globalThis as Record<string, unknown>;
  return !!(g.SpeechRecognition || g.webkitSpeechRecognition) ||
    (typeof g.MediaRecorder === "function" && !!globalThis.navigator?.mediaDevices?.getUserMedia);
}

/** Put `text` into the draft at the textarea's caret (replacing a selection). */
async function insertAtCaret(m: ComposerModel, text: string): Promise<void> {
  const { insertDictation } = await import("../../lib/browser/voice/dictation.ts");
  const area = document.getElementById("composer-input") as HTMLTextAreaElement | null;
  const draft = m.draft.value;
  const start = area?.selectionStart ?? draft.length;
  const end = area?.selectionEnd ?? start;
  const next = insertDictation(draft, start, end, text);
  m.input(next.text);
  requestAnimationFrame(() => {
    area?.focus();
    area?.setSelectionRange(next.caret, next.caret);
  });
}

export function DictateButton({ model: m }: { model: ComposerModel }) {
  const [supported, setSupported] = useState(true);
  const [phase, setPhase] = useState<DictationPhase>("idle");
  const session = useRef<Dictation | null>(null);

  useEffect(() => {
    setSupported(canDictate());
    return () => session.current?.cancel();
  }, []);

  const status = (text: string | null) => {
    if (
      text !== null || m.flash.value === t("voice.listening") ||
      m.flash.value === t("voice.transcribing")
    ) {
      m.flash.value = text;
    }
  };

  async function press() {
    if (!session.current) {
      const { createDictation } = await import("../../lib/browser/voice/dictation.ts");
      session.current ??= createDictation({
        phase(p) {
          setPhase(p);
          status(
            p === "listening"
              ? t("voice.listening")
              : p === "transcribing"
              ? t("voice.transcribing")
              : null,
          );
          if (p !== "idle") m.error.value = null;
        },
        text: (text) => void insertAtCaret(m, text),
        error: (message) => void (m.error.value = message),
      });
    }
    session.current.toggle();
  }

  if (!supported) return null;
  const listening = phase === "listening";
  return (
    <button
      type="button"
      class="composer-tool composer-dictate"
      data-action="dictate"
      data-state={phase}
      aria-pressed={listening}
      aria-label={listening ? t("voice.stopDictating") : t("voice.dictate")}
      title={listening ? t("voice.stopDictating") : t("voice.dictateTitle")}
      disabled={phase === "transcribing"}
      onClick={() => void press()}
    >
      <Icon name="mic" size={15} />
    </button>
  );
}
