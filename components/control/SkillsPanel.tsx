// Control Center › Skills: the skills the agent can load (name, description, where they
// live), each enabled or disabled, and an editor for SKILL.md (YAML front matter with `name`
// and `description`, then Markdown instructions). Disabled skills stay on disk, hidden from
// the agent.
import type { AppContext } from "../../lib/server/app_context.ts";
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

function SkillEditor({ editing }: { editing: NonNullable<SkillsData["editing"]> }) {
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="skill-save"
      data-mode={editing.isNew ? "new" : "edit"}
      aria-label={editing.isNew ? "New skill" : `Edit skill ${editing.name}`}
      novalidate
    >
      <h5 class="cc-subform-title">{editing.isNew ? "New skill" : `Edit ${editing.name}`}</h5>
      <Field
        id="cc-skill-name"
        label="Folder name"
        hint="Lower-case letters, digits, “.”, “_” or “-”. The agent loads it by this name."
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
          question: (
            <>
              Delete <code>{editing.name}</code> and its folder?
            </>
          ),
          confirm: "Delete skill",
          action: "skill-delete",
          name: editing.name,
        }}
        status="skill-form"
        cancelAction="skill-cancel"
        submit="Save skill"
      />
    </form>
  );
}

export function SkillsPanel({ data }: { data: SkillsData }) {
  return (
    <Section
      hook="skills"
      title="Available skills"
      description="Reusable instructions the agent loads when a task calls for them (or with /use name)."
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="skill-new">
          New skill
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      {data.skills.length === 0 && !data.editing ? <p class="cc-empty">No skills yet.</p> : null}
      {data.skills.length > 3
        ? (
          <input
            type="search"
            class="cc-input cc-skill-search"
            placeholder="Search skills by name, description or category"
            aria-label="Search skills"
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
                      ? <span class="cc-chip" title="In ~/.hermes/skills">hermes</span>
                      : null}
                    {s.category ? <span class="cc-chip">{s.category}</span> : null}
                    {s.enabled ? null : <span class="cc-chip">disabled</span>}
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
                    <RowButton action="skill-edit" name={s.name} label="Edit" />
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
