// Control Center › Skills: the skills the agent can load (name, description, where they
// live), each enabled or disabled, and an editor for SKILL.md (YAML front matter with `name`
// and `description`, then Markdown instructions). Disabled skills stay on disk, hidden from
// the agent.
import type { VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { t } from "../../lib/i18n/t.ts";
import {
  listSkills,
  readSkill,
  type Skill,
  skillFiles,
  skillJson,
} from "../../lib/agent/skills.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { Field, FormFoot, ListRow, RowButton, RowToggle, Section, StatusLine } from "./parts.tsx";

type SkillRow = ReturnType<typeof skillJson> & { linked_files: string[] };

export interface SkillsData {
  skills: SkillRow[];
  /** The editor: an existing skill with its text, a new one, or closed. */
  editing: { name: string; content: string; isNew: boolean } | null;
  /** Set when the skill asked for could not be opened. */
  error?: string;
}

/** What a new skill's editor starts with: the shape the agent reads. */
export const SKILL_TEMPLATE = `---
name: my-skill
description: One sentence saying what this skill does and when to use it.
---

# My skill

Step-by-step instructions the agent follows when it loads this skill.
`;

export async function loadSkills(
  app: Pick<AppContext, "config">,
  edit: string | null,
): Promise<SkillsData> {
  const skills = await Promise.all(
    (await listSkills(app.config)).map(async (s: Skill) => ({
      ...skillJson(s),
      linked_files: await skillFiles(s.dir, 12),
    })),
  );
  if (edit === null) return { skills, editing: null };
  if (edit === "") return { skills, editing: { name: "", content: SKILL_TEMPLATE, isNew: true } };
  try {
    const s = await readSkill(app.config, edit);
    return { skills, editing: { name: s.name, content: s.content, isNew: false } };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    return { skills, editing: null, error: err.message };
  }
}

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

function SkillEditor({ editing }: { editing: NonNullable<SkillsData["editing"]> }) {
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="skill-save"
      data-mode={editing.isNew ? "new" : "edit"}
      aria-label={editing.isNew
        ? t("extensions.skillNew")
        : t("extensions.skillEditAria", { name: editing.name })}
      novalidate
    >
      <h5 class="cc-subform-title">
        {editing.isNew
          ? t("extensions.skillNew")
          : t("extensions.editTitle", { name: editing.name })}
      </h5>
      <Field
        id="cc-skill-name"
        label={t("extensions.skillFolderName")}
        hint={t("extensions.skillFolderHint")}
        wide
      >
        <input
          id="cc-skill-name"
          name="name"
          class="cc-input mono"
          value={editing.name}
          readOnly={!editing.isNew}
          required
          pattern="[a-z0-9][a-z0-9._\-]{0,63}"
          autocomplete="off"
          spellcheck={false}
          data-cc-autofocus={editing.isNew ? "" : undefined}
        />
      </Field>
      {/* i18n-ignore: the file's name */}
      <Field id="cc-skill-content" label="SKILL.md" wide>
        <textarea
          id="cc-skill-content"
          name="content"
          class="cc-input cc-code mono"
          rows={16}
          spellcheck={false}
          value={editing.content}
          data-cc-autofocus={editing.isNew ? undefined : ""}
        />
      </Field>
      <FormFoot
        remove={editing.isNew ? undefined : {
          question: tWith("extensions.skillDeleteQuestion", { name: <code>{editing.name}</code> }),
          confirm: t("extensions.skillDelete"),
          action: "skill-delete",
          name: editing.name,
        }}
        status="skill-form"
        cancelAction="skill-cancel"
        submit={t("extensions.skillSave")}
      />
    </form>
  );
}

export function SkillsPanel({ data }: { data: SkillsData }) {
  return (
    <Section
      hook="skills"
      title={t("extensions.skillsTitle")}
      description={t("extensions.skillsDescription")}
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="skill-new">
          {t("extensions.skillNew")}
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      {data.skills.length === 0 && !data.editing
        ? <p class="cc-empty">{t("extensions.skillsEmpty")}</p>
        : null}
      {data.skills.length > 3
        ? (
          <input
            type="search"
            class="cc-input cc-skill-search"
            placeholder={t("extensions.skillSearchPlaceholder")}
            aria-label={t("extensions.skillSearch")}
            data-cc-skill-search
          />
        )
        : null}
      {data.skills.length > 0
        ? (
          <ul class="cc-rows" data-cc-list="skills">
            {data.skills.map((s) => (
              <ListRow
                key={s.name}
                attrs={{
                  "data-skill": s.name,
                  "data-enabled": s.enabled ? "true" : "false",
                  "data-search": `${s.name} ${s.description} ${s.category ?? ""}`.toLowerCase(),
                }}
                name={s.name}
                tags={
                  <>
                    {s.source === "hermes"
                      ? (
                        <span class="cc-chip" title={t("extensions.skillHermesTitle")}>
                          {t("extensions.skillHermes")}
                        </span>
                      )
                      : null}
                    {s.category ? <span class="cc-chip">{s.category}</span> : null}
                    {s.enabled
                      ? null
                      : <span class="cc-chip">{t("extensions.skillDisabledChip")}</span>}
                  </>
                }
                meta={
                  <>
                    {s.description ? <p class="cc-row-meta">{s.description}</p> : null}
                    {s.linked_files.length
                      ? (
                        <p class="cc-row-meta mono" data-skill-files>
                          {s.linked_files.join(" · ")}
                        </p>
                      )
                      : null}
                  </>
                }
                actions={
                  <>
                    <RowToggle action="skill-toggle" name={s.name} enabled={s.enabled} />
                    <RowButton action="skill-edit" name={s.name} label={t("common.edit")} />
                  </>
                }
              />
            ))}
          </ul>
        )
        : null}
      {data.editing ? <SkillEditor editing={data.editing} /> : null}
      <StatusLine hook="skills" />
    </Section>
  );
}
