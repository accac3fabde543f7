// Control Center › Skills: the skills the agent can load (name, description, where they
// live), each enabled or disabled, and an editor for SKILL.md (YAML front matter with `name`
// and `description`, then Markdown instructions). Disabled skills stay on disk, hidden from
// the agent.
import type { AppContext } from "../../lib/app_context.ts";
import { listSkills, readSkill, type Skill, skillJson } from "../../lib/skills.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { ConfirmAction, Field, Section, StatusLine } from "./parts.tsx";

type SkillRow = ReturnType<typeof skillJson>;

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
  const skills = (await listSkills(app.config)).map((s: Skill) => skillJson(s));
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
      <div class="cc-form-foot">
        {!editing.isNew
          ? (
            <ConfirmAction
              label="Delete…"
              question={
                <>
                  Delete <code>{editing.name}</code> and its folder?
                </>
              }
              confirm="Delete skill"
              action="skill-delete"
              data={{ name: editing.name }}
            />
          )
          : null}
        <StatusLine hook="skill-form" />
        <button type="button" class="btn cc-btn" data-cc-action="skill-cancel">Cancel</button>
        <button type="submit" class="btn cc-btn cc-btn-primary">Save skill</button>
      </div>
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
      {data.skills.length > 0
        ? (
          <ul class="cc-rows" data-cc-list="skills">
            {data.skills.map((s) => (
              <li
                key={s.name}
                class="cc-row"
                data-skill={s.name}
                data-enabled={s.enabled ? "true" : "false"}
              >
                <div class="cc-row-main">
                  <div class="cc-row-title">
                    <span class="mono cc-row-name">{s.name}</span>
                    {s.source === "hermes"
                      ? <span class="cc-chip" title="In ~/.hermes/skills">hermes</span>
                      : null}
                    {s.enabled ? null : <span class="cc-chip">disabled</span>}
                  </div>
                  {s.description ? <p class="cc-row-meta">{s.description}</p> : null}
                </div>
                <div class="cc-row-actions">
                  <label class="cc-toggle cc-toggle-small" title={s.enabled ? "Disable" : "Enable"}>
                    <input
                      type="checkbox"
                      role="switch"
                      data-cc-action="skill-toggle"
                      data-name={s.name}
                      checked={s.enabled}
                      aria-label={`${s.name} enabled`}
                    />
                    <span class="cc-toggle-track" aria-hidden="true" />
                  </label>
                  <button
                    type="button"
                    class="btn cc-btn cc-btn-quiet"
                    data-cc-action="skill-edit"
                    data-name={s.name}
                    aria-label={`Edit ${s.name}`}
                  >
                    Edit
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )
        : null}
      {data.editing ? <SkillEditor editing={data.editing} /> : null}
      <StatusLine hook="skills" />
    </Section>
  );
}
