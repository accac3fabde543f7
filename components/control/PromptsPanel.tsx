// Control Center › Prompts: the saved-prompt library (lib/agent/saved_prompts.ts) the composer
// offers with /prompt or its button. Each row shows the prompt's {{variables}}, which the
// composer asks for before the text goes into the draft. Driven by
// lib/browser/pages/prompts_panel.ts; every change re-renders this panel server-side.
import type { VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { t } from "../../lib/i18n/t.ts";
import { getPrompt, listPrompts, type SavedPrompt } from "../../lib/agent/saved_prompts.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { Field, FormFoot, ListRow, RowButton, Section, StatusLine } from "./parts.tsx";

export interface PromptsData {
  prompts: SavedPrompt[];
  /** The form: an existing prompt, a new one (`prompt` null), or closed. */
  editing: { prompt: SavedPrompt | null } | null;
  error?: string;
}

export async function loadPrompts(app: AppContext, edit: string | null): Promise<PromptsData> {
  const data: PromptsData = { prompts: await listPrompts(app.db), editing: null };
  try {
    if (edit === "") data.editing = { prompt: null };
    else if (edit) data.editing = { prompt: await getPrompt(app.db, edit) };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    data.error = err.message;
  }
  return data;
}

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

function PromptForm({ prompt }: { prompt: SavedPrompt | null }) {
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="prompt-save"
      data-prompt={prompt?.name ?? ""}
      aria-label={prompt
        ? t("extensions.promptEditAria", { name: prompt.name })
        : t("extensions.promptNew")}
      novalidate
    >
      <h5 class="cc-subform-title">
        {prompt ? t("extensions.editTitle", { name: prompt.name }) : t("extensions.promptNew")}
      </h5>
      <Field
        id="cc-prompt-name"
        label={t("common.name")}
        hint={t("extensions.promptNameHint")}
        wide
      >
        <input
          id="cc-prompt-name"
          name="name"
          class="cc-input mono"
          value={prompt?.name ?? ""}
          maxLength={64}
          placeholder={t("extensions.promptNamePlaceholder")}
          autocomplete="off"
          spellcheck={false}
          readOnly={!!prompt}
          data-cc-autofocus=""
        />
      </Field>
      <Field
        id="cc-prompt-content"
        label={t("extensions.promptText")}
        hint={t("extensions.promptTextHint")}
        wide
      >
        <textarea id="cc-prompt-content" name="content" class="cc-input" rows={6} required>
          {prompt?.content ?? ""}
        </textarea>
      </Field>
      <FormFoot
        remove={prompt
          ? {
            question: tWith("extensions.promptDeleteQuestion", {
              name: <strong>{prompt.name}</strong>,
            }),
            confirm: t("extensions.promptDelete"),
            action: "prompt-delete",
            name: prompt.name,
          }
          : undefined}
        status="prompt-form"
        cancelAction="prompt-cancel"
        submit={prompt ? t("extensions.promptSave") : t("extensions.promptCreate")}
      />
    </form>
  );
}

export function PromptsPanel({ data }: { data: PromptsData }) {
  return (
    <Section
      hook="prompts"
      title={t("extensions.promptsTitle")}
      description={tWith("extensions.promptsDescription", {
        // i18n-ignore: the command's name, typed as it is
        command: <span class="mono">/prompt</span>,
      })}
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="prompt-new">
          {t("extensions.promptNew")}
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      {data.prompts.length === 0 && !data.editing
        ? <p class="cc-empty">{t("extensions.promptsEmpty")}</p>
        : null}
      {data.prompts.length > 0
        ? (
          <ul class="cc-rows" data-cc-list="prompts">
            {data.prompts.map((p) => (
              <ListRow
                key={p.name}
                attrs={{ "data-prompt": p.name }}
                name={p.name}
                tags={p.variables.map((v) => (
                  <span key={v} class="cc-chip mono" data-prompt-var={v}>{`{{${v}}}`}</span>
                ))}
                meta={<p class="cc-row-meta cc-prompt-head">{p.content.slice(0, 160)}</p>}
                actions={<RowButton action="prompt-edit" name={p.name} label={t("common.edit")} />}
              />
            ))}
          </ul>
        )
        : null}
      {data.editing ? <PromptForm prompt={data.editing.prompt} /> : null}
      <StatusLine hook="prompts" />
    </Section>
  );
}
