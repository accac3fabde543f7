// Control Center › Conversation › Voice: how answers are read aloud (this browser's speech
// synthesis with its voice and rate, or the server's voice provider), reading new answers by
// themselves, whether dictation keeps listening, and what the server engines use (the voice
// provider, its transcription and speech models, the server voice). Each field saves on its own
// change (lib/browser/pages/voice.ts → lib/browser/voice/voice_settings.ts).
import type { AppContext } from "../../lib/server/app_context.ts";
import { resolveProviders } from "../../lib/providers/provider_config.ts";
import { readPreferences } from "../../lib/settings/settings.ts";
import { t } from "../../lib/i18n/t.ts";
import { Field, MonoTextField, Section, StatusLine, SwitchField } from "./parts.tsx";

export interface VoiceData {
  engine: "browser" | "agent";
  voice: string;
  rate: number;
  autoRead: boolean;
  continuous: boolean;
  provider: string;
  /** Providers that can listen and speak (OpenAI and OpenAI-compatible ones). */
  providers: Array<{ id: string; label: string }>;
  /** The active provider's label ("" when none is configured). */
  active: string;
  sttModel: string;
  ttsModel: string;
  serverVoice: string;
}

export async function loadVoice(app: Pick<AppContext, "db" | "config">): Promise<VoiceData> {
  const p = await readPreferences(app.db);
  const resolved = resolveProviders(app.config);
  const str = (v: unknown) => typeof v === "string" ? v : "";
  return {
    engine: p.tts_engine === "agent" ? "agent" : "browser",
    voice: str(p.tts_voice),
    rate: typeof p.tts_rate === "number" ? p.tts_rate : 1,
    autoRead: p.tts_auto_read === true,
    continuous: p.voice_continuous === true,
    provider: str(p.voice_provider),
    providers: resolved.endpoints.filter((e) => e.protocol !== "anthropic")
      .map((e) => ({ id: e.id, label: e.label })),
    active: resolved.active?.label ?? "",
    sttModel: str(p.stt_model),
    ttsModel: str(p.tts_model),
    serverVoice: str(p.tts_server_voice),
  };
}

/** The voices OpenAI's speech models know (a suggestion list: other servers have their own). */
const SERVER_VOICES = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];

export function VoiceSection({ data }: { data: VoiceData }) {
  return (
    <Section hook="voice" title={t("voice.section")} description={t("voice.sectionHint")}>
      <div class="cc-form">
        <div class="cc-grid">
          <Field id="cc-tts-engine" label={t("voice.engine")}>
            <select
              id="cc-tts-engine"
              name="tts_engine"
              class="cc-input"
              data-voice-setting="tts_engine"
            >
              <option value="browser" selected={data.engine === "browser"}>
                {t("voice.engineBrowser")}
              </option>
              <option value="agent" selected={data.engine === "agent"}>
                {t("voice.engineServer")}
              </option>
            </select>
          </Field>
          <Field id="cc-tts-rate" label={t("voice.rate")} hint={t("voice.rateHint")}>
            <input
              id="cc-tts-rate"
              name="tts_rate"
              class="cc-input cc-input-short"
              type="number"
              min="0.5"
              max="2"
              step="0.1"
              value={String(data.rate)}
              data-voice-setting="tts_rate"
            />
          </Field>
        </div>
        <Field id="cc-tts-voice" label={t("voice.browserVoice")} hint={t("voice.browserVoiceHint")}>
          <select
            id="cc-tts-voice"
            name="tts_voice"
            class="cc-input"
            data-voice-setting="tts_voice"
            data-voice-voices
          >
            <option value={data.voice} selected>{data.voice || t("voice.defaultVoice")}</option>
          </select>
        </Field>
        <SwitchField
          checked={data.autoRead}
          label={t("voice.autoRead")}
          hint={t("voice.autoReadHint")}
          hooks={{ "data-voice-setting": "tts_auto_read" }}
        />
        <SwitchField
          checked={data.continuous}
          label={t("voice.continuous")}
          hint={t("voice.continuousHint")}
          hooks={{ "data-voice-setting": "voice_continuous" }}
        />
        <Field id="cc-voice-provider" label={t("voice.provider")} hint={t("voice.providerHint")}>
          <select
            id="cc-voice-provider"
            name="voice_provider"
            class="cc-input"
            data-voice-setting="voice_provider"
          >
            <option value="" selected={!data.provider}>
              {data.active
                ? t("voice.providerActive", { name: data.active })
                : t("voice.providerNone")}
            </option>
            {data.providers.map((p) => (
              <option key={p.id} value={p.id} selected={data.provider === p.id}>{p.label}</option>
            ))}
            {data.provider && !data.providers.some((p) => p.id === data.provider)
              ? <option value={data.provider} selected>{data.provider}</option>
              : null}
          </select>
        </Field>
        <div class="cc-grid cc-grid-3">
          <MonoTextField
            id="cc-stt-model"
            name="stt_model"
            label={t("voice.sttModel")}
            hint={t("voice.sttModelHint")}
            value={data.sttModel}
            maxLength={128}
            hooks={{ "data-voice-setting": "stt_model" }}
          />
          <MonoTextField
            id="cc-tts-model"
            name="tts_model"
            label={t("voice.ttsModel")}
            hint={t("voice.ttsModelHint")}
            value={data.ttsModel}
            maxLength={128}
            hooks={{ "data-voice-setting": "tts_model" }}
          />
          <MonoTextField
            id="cc-tts-server-voice"
            name="tts_server_voice"
            label={t("voice.serverVoice")}
            hint={t("voice.serverVoiceHint")}
            value={data.serverVoice}
            list="cc-server-voices"
            suggestions={SERVER_VOICES.map((v) => <option key={v} value={v} />)}
            maxLength={128}
            hooks={{ "data-voice-setting": "tts_server_voice" }}
          />
        </div>
      </div>
      <StatusLine hook="voice" />
    </Section>
  );
}
