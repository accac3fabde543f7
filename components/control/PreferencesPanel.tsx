// Control Center › Preferences: the send key, the model and workspace new conversations get,
// and how long a tool call waits for an approval. One form; only changed fields are sent
// (POST /api/settings merges), so saving never pins a default that came from the config.
// Below it, the layout options (./LayoutOptions.tsx), each saved as it changes.
import type { AppContext } from "../../lib/server/app_context.ts";
import type { PublicSettings } from "../../lib/settings/settings.ts";
import { listWorkspaces } from "../../lib/workspace/workspaces.ts";
import { t } from "../../lib/i18n/t.ts";
import { Field, MonoTextField, Section, StatusLine } from "./parts.tsx";
import { LayoutOptions, type LayoutOptionsData, layoutOptionsOf } from "./LayoutOptions.tsx";

export interface PreferencesData extends
  Pick<
    PublicSettings,
    "send_key" | "default_model" | "default_workspace" | "approval_timeout_seconds"
  > {
  workspaces: Array<{ path: string; name: string }>;
  layout: LayoutOptionsData;
}

export async function loadPreferences(
  app: Pick<AppContext, "db" | "config">,
  settings: PublicSettings,
): Promise<PreferencesData> {
  return {
    send_key: settings.send_key,
    default_model: settings.default_model,
    default_workspace: settings.default_workspace,
    approval_timeout_seconds: settings.approval_timeout_seconds,
    workspaces: await listWorkspaces(app),
    layout: layoutOptionsOf(settings),
  };
}

/** The send keys; `label` names the keys themselves, `hintKey` is a catalog key. */
const SEND_KEYS = [
  { value: "enter", label: "Enter", hintKey: "control.sendKeyEnterHint" }, // i18n-ignore: key names
  // i18n-ignore: key names
  { value: "ctrl+enter", label: "Ctrl+Enter (⌘+Enter)", hintKey: "control.sendKeyOtherHint" },
  // i18n-ignore: key names
  { value: "shift+enter", label: "Shift+Enter", hintKey: "control.sendKeyOtherHint" },
] as const;

export function PreferencesPanel({ data }: { data: PreferencesData }) {
  return (
    <>
      <PreferencesForm data={data} />
      <LayoutOptions data={data.layout} />
    </>
  );
}

function PreferencesForm({ data }: { data: PreferencesData }) {
  return (
    <form class="cc-form" data-cc-form="preferences" novalidate>
      <Section hook="composer" title={t("control.composer")}>
        <Field id="cc-send-key" label={t("control.sendWith")}>
          <select id="cc-send-key" name="send_key" class="cc-input">
            {SEND_KEYS.map((k) => (
              <option key={k.value} value={k.value} selected={data.send_key === k.value}>
                {k.label} — {t(k.hintKey)}
              </option>
            ))}
          </select>
        </Field>
      </Section>
      <Section hook="defaults" title={t("control.newConversations")}>
        <MonoTextField
          id="cc-default-model"
          name="default_model"
          label={t("control.defaultModel")}
          hint={t("control.defaultModelHint")}
          value={data.default_model ?? ""}
          list="cc-model-options"
          // The page script fills this list with the provider's model ids.
          hooks={{ "data-cc-models": true }}
        />
        <MonoTextField
          id="cc-default-workspace"
          name="default_workspace"
          label={t("control.defaultWorkspace")}
          hint={t("control.defaultWorkspaceHint")}
          value={data.default_workspace}
          list="cc-workspace-options"
          suggestions={data.workspaces.map((w) => (
            <option key={w.path} value={w.path}>{w.name}</option>
          ))}
        />
      </Section>
      <Section hook="approvals" title={t("control.approvals")}>
        <Field
          id="cc-approval-timeout"
          label={t("control.approvalTimeout")}
          hint={t("control.approvalTimeoutHint")}
        >
          <input
            id="cc-approval-timeout"
            name="approval_timeout_seconds"
            class="cc-input cc-input-short"
            type="number"
            min="10"
            max="86400"
            step="1"
            value={String(data.approval_timeout_seconds)}
            required
          />
        </Field>
      </Section>
      <div class="cc-form-foot">
        <StatusLine hook="preferences" />
        <button type="submit" class="btn cc-btn cc-btn-primary">
          {t("control.savePreferences")}
        </button>
      </div>
    </form>
  );
}
