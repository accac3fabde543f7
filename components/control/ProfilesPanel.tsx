// Control Center › Profiles: named agent setups (lib/agent/profiles.ts), each with its own memory,
// skills and defaults for new chats (model, provider, personality, workspace). Rows show the
// active one (new chats use it) and how many chats each holds; the form creates or edits one;
// deleting a profile that has chats asks whether to move them to `default` or delete them.
// Driven by lib/browser/pages/profiles_panel.ts; every change re-renders this panel server-side.
import type { AppContext } from "../../lib/server/app_context.ts";
import { listProfiles, profileJson } from "../../lib/agent/profiles.ts";
import { listPersonalities } from "../../lib/agent/personalities.ts";
import { listWorkspaces } from "../../lib/workspace/workspaces.ts";
import { Badge, Field, FormFoot, ListRow, RowButton, Section, StatusLine } from "./parts.tsx";

type ProfileView = ReturnType<typeof profileJson>;

export interface ProfilesData {
  profiles: ProfileView[];
  workspaces: { path: string; name: string }[];
  personalities: string[];
  /** The form: an existing profile, a new one (`profile` null), or closed. */
  editing: { profile: ProfileView | null } | null;
  error?: string;
}

export async function loadProfiles(app: AppContext, edit: string | null): Promise<ProfilesData> {
  const profiles = (await listProfiles(app.db, app.config)).map(profileJson);
  const data: ProfilesData = {
    profiles,
    workspaces: listWorkspaces(app).map((w) => ({ path: w.path, name: w.name })),
    personalities: listPersonalities(app.config.file).map((p) => p.name),
    editing: null,
  };
  if (edit === "") data.editing = { profile: null };
  else if (edit) {
    const p = profiles.find((x) => x.name === edit);
    if (p) data.editing = { profile: p };
    else data.error = `No profile "${edit}"`;
  }
  return data;
}

function ProfileForm({ p, data }: { p: ProfileView | null; data: ProfilesData }) {
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="profile-save"
      data-profile={p?.name ?? ""}
      aria-label={p ? `Edit profile ${p.name}` : "New profile"}
      novalidate
    >
      <h5 class="cc-subform-title">{p ? `Edit ${p.name}` : "New profile"}</h5>
      {p
        ? null
        : (
          <Field id="cc-profile-name" label="Name" hint="Lower-case letters, digits, _ or -." wide>
            <input
              id="cc-profile-name"
              name="name"
              class="cc-input mono"
              maxLength={64}
              placeholder="work"
              autocomplete="off"
              spellcheck={false}
              data-cc-autofocus=""
            />
          </Field>
        )}
      <Field id="cc-profile-model" label="Model" hint="Empty: the console's default model.">
        <input
          id="cc-profile-model"
          name="model"
          class="cc-input mono"
          value={p?.model ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-profile-provider" label="Provider" hint="Empty: the model's provider.">
        <input
          id="cc-profile-provider"
          name="provider"
          class="cc-input mono"
          value={p?.provider ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-profile-personality" label="Personality">
        <select id="cc-profile-personality" name="personality" class="cc-input">
          <option value="">None (default voice)</option>
          {data.personalities.map((n) => (
            <option key={n} value={n} selected={p?.personality === n}>{n}</option>
          ))}
        </select>
      </Field>
      <Field id="cc-profile-workspace" label="Workspace">
        <select id="cc-profile-workspace" name="workspace" class="cc-input">
          <option value="">The last used workspace</option>
          {data.workspaces.map((w) => (
            <option key={w.path} value={w.path} selected={p?.workspace === w.path}>
              {w.name} — {w.path}
            </option>
          ))}
        </select>
      </Field>
      <FormFoot
        status="profile-form"
        cancelAction="profile-cancel"
        submit={p ? "Save profile" : "Create profile"}
      />
      {p && !p.is_default ? <DeleteProfile p={p} /> : null}
    </form>
  );
}

/** Two steps; with chats, the second step asks what becomes of them. */
function DeleteProfile({ p }: { p: ProfileView }) {
  const n = p.session_count;
  return (
    <div class="cc-confirmable cc-profile-delete">
      <button type="button" class="btn cc-btn cc-btn-danger" data-cc-ask>Delete profile…</button>
      <div class="cc-confirm" role="group" hidden>
        <span class="cc-confirm-q">
          {n
            ? (
              <>
                {n === 1 ? "1 chat uses" : `${n} chats use`} <strong>{p.name}</strong>.
              </>
            )
            : (
              <>
                Delete <strong>{p.name}</strong>? Its files stay on disk.
              </>
            )}
        </span>
        {n
          ? (
            <>
              <button
                type="button"
                class="btn cc-btn"
                data-cc-action="profile-delete"
                data-name={p.name}
                data-sessions="move"
              >
                Move them to default
              </button>
              <button
                type="button"
                class="btn cc-btn cc-btn-danger-solid"
                data-cc-action="profile-delete"
                data-name={p.name}
                data-sessions="delete"
              >
                Delete them too
              </button>
            </>
          )
          : (
            <button
              type="button"
              class="btn cc-btn cc-btn-danger-solid"
              data-cc-action="profile-delete"
              data-name={p.name}
            >
              Delete profile
            </button>
          )}
        <button type="button" class="btn cc-btn" data-cc-cancel>Cancel</button>
      </div>
    </div>
  );
}

export function ProfilesPanel({ data }: { data: ProfilesData }) {
  return (
    <Section
      hook="profiles"
      title="Profiles"
      description="Separate setups for the agent: each has its own memory and skills, and the defaults new chats get. New chats use the active profile; a chat keeps the one it started with."
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="profile-new">
          New profile
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      <ul class="cc-rows" data-cc-list="profiles">
        {data.profiles.map((p) => (
          <ListRow
            key={p.name}
            attrs={{ "data-profile": p.name, "data-active": p.is_active ? "true" : "false" }}
            name={p.name}
            tags={
              <>
                {p.is_active ? <Badge tone="success">active</Badge> : null}
                <span class="cc-chip" data-profile-count>
                  {p.session_count === 1 ? "1 chat" : `${p.session_count} chats`}
                </span>
                {p.personality ? <span class="cc-chip">{p.personality}</span> : null}
              </>
            }
            meta={
              <p class="cc-row-meta mono">
                {p.model ?? "default model"}
                {p.provider ? ` · ${p.provider}` : ""}
                {p.workspace ? ` · ${p.workspace}` : ""}
              </p>
            }
            actions={
              <>
                <RowButton
                  action="profile-switch"
                  name={p.name}
                  label={p.is_active ? "Active" : "Use for new chats"}
                  disabled={p.is_active}
                />
                <RowButton action="profile-edit" name={p.name} label="Edit" />
              </>
            }
          />
        ))}
      </ul>
      {data.editing ? <ProfileForm p={data.editing.profile} data={data} /> : null}
      <StatusLine hook="profiles" />
    </Section>
  );
}
