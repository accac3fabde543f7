// Control Center › Profiles: named agent setups (lib/agent/profiles.ts), each with its own memory,
// skills and defaults for new chats (model, provider, personality, workspace). Rows show the
// active one (new chats use it) and how many chats each holds; the form creates or edits one;
// deleting a profile that has chats asks whether to move them to `default` or delete them.
// Driven by lib/browser/pages/profiles_panel.ts; every change re-renders this panel server-side.
import type { VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { t } from "../../lib/i18n/t.ts";
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
  /** The name asked for to edit when no profile has it. */
  missing?: string;
}

export async function loadProfiles(app: AppContext, edit: string | null): Promise<ProfilesData> {
  const profiles = (await listProfiles(app.db, app.config)).map(profileJson);
  const data: ProfilesData = {
    profiles,
    workspaces: (await listWorkspaces(app)).map((w) => ({ path: w.path, name: w.name })),
    personalities: listPersonalities(app.config.file).map((p) => p.name),
    editing: null,
  };
  if (edit === "") data.editing = { profile: null };
  else if (edit) {
    const p = profiles.find((x) => x.name === edit);
    if (p) data.editing = { profile: p };
    else data.missing = edit;
  }
  return data;
}

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>, values: Record<string, number> = {}) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { ...values, [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

function ProfileForm({ p, data }: { p: ProfileView | null; data: ProfilesData }) {
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="profile-save"
      data-profile={p?.name ?? ""}
      aria-label={p
        ? t("extensions.profileEditAria", { name: p.name })
        : t("extensions.profileNew")}
      novalidate
    >
      <h5 class="cc-subform-title">
        {p ? t("extensions.editTitle", { name: p.name }) : t("extensions.profileNew")}
      </h5>
      {p ? null : (
        <Field
          id="cc-profile-name"
          label={t("common.name")}
          hint={t("extensions.profileNameHint")}
          wide
        >
          <input
            id="cc-profile-name"
            name="name"
            class="cc-input mono"
            maxLength={64}
            placeholder={t("extensions.profileNamePlaceholder")}
            autocomplete="off"
            spellcheck={false}
            data-cc-autofocus=""
          />
        </Field>
      )}
      <Field
        id="cc-profile-model"
        label={t("extensions.profileModel")}
        hint={t("extensions.profileModelHint")}
      >
        <input
          id="cc-profile-model"
          name="model"
          class="cc-input mono"
          value={p?.model ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field
        id="cc-profile-provider"
        label={t("extensions.profileProvider")}
        hint={t("extensions.profileProviderHint")}
      >
        <input
          id="cc-profile-provider"
          name="provider"
          class="cc-input mono"
          value={p?.provider ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-profile-personality" label={t("extensions.profilePersonality")}>
        <select id="cc-profile-personality" name="personality" class="cc-input">
          <option value="">{t("extensions.profileNoPersonality")}</option>
          {data.personalities.map((n) => (
            <option key={n} value={n} selected={p?.personality === n}>{n}</option>
          ))}
        </select>
      </Field>
      <Field id="cc-profile-workspace" label={t("extensions.profileWorkspace")}>
        <select id="cc-profile-workspace" name="workspace" class="cc-input">
          <option value="">{t("extensions.profileLastWorkspace")}</option>
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
        submit={p ? t("extensions.profileSave") : t("extensions.profileCreate")}
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
      <button type="button" class="btn cc-btn cc-btn-danger" data-cc-ask>
        {t("extensions.profileDeleteAsk")}
      </button>
      <div class="cc-confirm" role="group" hidden>
        <span class="cc-confirm-q">
          {tWith(n ? "extensions.profileInUse" : "extensions.profileDeleteQuestion", {
            name: <strong>{p.name}</strong>,
          }, { count: n })}
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
                {t("extensions.profileMoveChats")}
              </button>
              <button
                type="button"
                class="btn cc-btn cc-btn-danger-solid"
                data-cc-action="profile-delete"
                data-name={p.name}
                data-sessions="delete"
              >
                {t("extensions.profileDeleteChats")}
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
              {t("extensions.profileDelete")}
            </button>
          )}
        <button type="button" class="btn cc-btn" data-cc-cancel>{t("common.cancel")}</button>
      </div>
    </div>
  );
}

export function ProfilesPanel({ data }: { data: ProfilesData }) {
  return (
    <Section
      hook="profiles"
      title={t("extensions.profilesTitle")}
      description={t("extensions.profilesDescription")}
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="profile-new">
          {t("extensions.profileNew")}
        </button>
      }
    >
      {data.missing
        ? (
          <p class="cc-callout" data-tone="error">
            {t("extensions.profileMissing", { name: data.missing })}
          </p>
        )
        : null}
      <ul class="cc-rows" data-cc-list="profiles">
        {data.profiles.map((p) => (
          <ListRow
            key={p.name}
            attrs={{ "data-profile": p.name, "data-active": p.is_active ? "true" : "false" }}
            name={p.name}
            tags={
              <>
                {p.is_active
                  ? <Badge tone="success">{t("extensions.profileActiveBadge")}</Badge>
                  : null}
                <span class="cc-chip" data-profile-count>
                  {t("extensions.profileChats", { count: p.session_count })}
                </span>
                {p.personality ? <span class="cc-chip">{p.personality}</span> : null}
              </>
            }
            meta={
              <p class="cc-row-meta mono">
                {p.model ?? t("extensions.profileDefaultModel")}
                {p.provider ? ` · ${p.provider}` : ""}
                {p.workspace ? ` · ${p.workspace}` : ""}
              </p>
            }
            actions={
              <>
                <RowButton
                  action="profile-switch"
                  name={p.name}
                  label={p.is_active ? t("extensions.profileActive") : t("extensions.profileUse")}
                  disabled={p.is_active}
                />
                <RowButton action="profile-edit" name={p.name} label={t("common.edit")} />
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
