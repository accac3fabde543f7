// The composer footer's left side: the attach and saved-prompts buttons (with the hidden file
// input) and the chips for the chat's model, its workspace, its profile and the "approvals off"
// switch, and the quota chip when that setting is on. Each chip opens its popover or flips its
// switch through the model. Rendered inside the Composer island.
import { useRef } from "preact/hooks";
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { QuotaChip } from "./QuotaChip.tsx";
import { t } from "../../lib/i18n/t.ts";

export function ComposerTools({ model: m }: { model: ComposerModel }) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div class="composer-tools">
      <button
        type="button"
        class="composer-tool"
        data-action="attach"
        aria-label={t("composer.attachFiles")}
        title={t("composer.attachFilesTitle")}
        onClick={() => fileInput.current?.click()}
      >
        <Icon name="paperclip" size={15} />
      </button>
      <input
        ref={fileInput}
        type="file"
        multiple
        class="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-role="file-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = "";
          if (files.length) m.addFiles(files);
        }}
      />
      <button
        type="button"
        class="composer-tool"
        data-action="saved-prompts"
        aria-label={t("composer.savedPrompts")}
        title={t("composer.savedPromptsTitle")}
        onClick={() => (m.replaceDraft("/prompt "), m.view.focus())}
      >
        <Icon name="fileText" size={15} />
      </button>
      <FooterChips model={m} />
      <ProfileChip model={m} />
      <QuotaChip model={m} />
    </div>
  );
}

/** The chat's profile (a new chat: the active one); a click offers the profiles for new chats. */
function ProfileChip({ model: m }: { model: ComposerModel }) {
  if (!m.showProfile.value) return null;
  const name = m.profile.value;
  return (
    <button
      type="button"
      class="composer-chip composer-chip-quiet"
      data-chip="profile"
      data-profile={name}
      aria-haspopup="listbox"
      aria-expanded={m.open.value === "profile"}
      title={t(m.sid.value ? "composer.profileChatTitle" : "composer.profileNewTitle", { name })}
      onClick={() => m.openPopover("profile")}
    >
      <Icon name="user" size={13} />
      <span class="chip-label">{name}</span>
    </button>
  );
}

function FooterChips({ model: m }: { model: ComposerModel }) {
  const open = m.open.value;
  const model = m.model.value;
  const modelLabel = m.modelLabel.value;
  const workspaceLabel = m.workspaceLabel.value;
  return (
    <>
      <button
        type="button"
        class="composer-chip"
        data-chip="model"
        aria-haspopup="listbox"
        aria-expanded={open === "model"}
        title={model.provider ? `${model.id} (${model.provider})` : modelLabel}
        onClick={() => m.openPopover("model")}
      >
        <Icon name="cpu" size={13} />
        <span class="chip-label">{modelLabel}</span>
        <Icon name="chevronDown" size={12} />
      </button>
      {workspaceLabel
        ? (
          <button
            type="button"
            class="composer-chip"
            data-chip="workspace"
            aria-haspopup="menu"
            aria-expanded={open === "workspace"}
            title={t("composer.workspaceTitle", { path: m.workspace.value })}
            onClick={() => m.openPopover("workspace")}
          >
            <Icon name="folder" size={13} />
            <span class="chip-label">{workspaceLabel}</span>
            <Icon name="chevronDown" size={12} />
          </button>
        )
        : null}
      {m.yolo.value
        ? (
          <button
            type="button"
            class="composer-chip"
            data-chip="yolo"
            title={t("composer.yoloChipTitle")}
            onClick={() => m.toggleYolo()}
          >
            <Icon name="alert" size={13} />
            <span class="chip-label">{t("composer.approvalsOff")}</span>
          </button>
        )
        : null}
    </>
  );
}
