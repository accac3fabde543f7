// The profile chip's menu: the profiles (GET /api/profiles) with the active one (new chats)
// marked; a pick switches the active profile (POST /api/profile/switch through the model).
// Existing chats keep the profile they were created under. Loaded on first use (dynamic import).
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../../lib/browser/api_client.ts";
import { Icon } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";

interface ProfileRow {
  name: string;
  is_active: boolean;
  model: string | null;
  session_count: number;
}

export interface ProfileMenuProps {
  /** Pick `name` (its default model, to show on a new chat). */
  onPick(name: string, model: string | null): void;
  onClose(): void;
}

export function ProfileMenu({ onPick, onClose }: ProfileMenuProps) {
  const [list, setList] = useState<ProfileRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ profiles: ProfileRow[] }>("GET", "/api/profiles")
      .then((res) => setList(res.profiles))
      .catch((err) => setError(err instanceof ApiError ? err.message : String(err)));
  }, []);
  return (
    <div
      class="composer-pop profile-menu"
      data-popover="profile"
      onKeyDown={(e) => {
        if (e.key === "Escape") (e.preventDefault(), e.stopPropagation(), onClose());
      }}
    >
      <p class="pop-heading">{t("composer.profileHeading")}</p>
      {error ? <p class="pop-error" role="alert">{error}</p> : null}
      {!list && !error ? <p class="pop-empty">{t("composer.loadingProfiles")}</p> : null}
      <ul class="pop-list" role="menu" aria-label={t("composer.profiles")}>
        {(list ?? []).map((p) => (
          <li role="none" key={p.name}>
            <button
              type="button"
              role="menuitemradio"
              aria-checked={p.is_active}
              class="pop-option workspace-option"
              data-profile={p.name}
              onClick={() => onPick(p.name, p.model)}
            >
              <span class="workspace-name">{p.name}</span>
              <span class="workspace-path mono">
                {t("composer.profileDetail", {
                  model: p.model ?? t("composer.profileDefaultModel"),
                  count: p.session_count,
                })}
              </span>
              {p.is_active ? <Icon name="check" size={13} class="icon model-check" /> : null}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
