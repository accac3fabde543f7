// The Control Center's Sharing tab: every share link (lib/sharing/shares.ts), newest first, with
// the conversation's title as it was shared, when it was made and when it expires, what it
// includes, and — while it works — Copy link and a two-step Revoke. Revoked and expired links
// stay listed, marked, so the owner can see what was once public.
import type { AppContext } from "../../lib/server/app_context.ts";
import { listShares, type Share } from "../../lib/sharing/shares.ts";
import { t } from "../../lib/i18n/t.ts";
import { Badge, ConfirmAction, ListRow, Section, StatusLine, withNode } from "./parts.tsx";

export interface SharesData {
  shares: Share[];
}

export async function loadShares(app: AppContext): Promise<SharesData> {
  return { shares: await listShares(app.db, app.clock) };
}

const iso = (at: number) => new Date(at * 1000).toISOString();

/** A time the page script rewrites in the reader's zone (UTC until it does). */
function When({ at }: { at: number }) {
  return (
    <time dateTime={iso(at)} data-cc-localtime="">
      {t("control.utcTime", { time: iso(at).slice(0, 16).replace("T", " ") })}
    </time>
  );
}

const STATES = {
  active: "control.shareActive",
  revoked: "control.shareRevoked",
  expired: "control.shareExpired",
} as const;

function ShareRow({ share }: { share: Share }) {
  const state = share.revoked_at !== null ? "revoked" : share.active ? "active" : "expired";
  const includes = share.include_files
    ? t("control.shareIncludesFiles")
    : share.include_tools
    ? t("control.shareIncludesTools")
    : t("control.shareIncludesConversation");
  return (
    <ListRow
      attrs={{ "data-share": share.token, "data-state": state }}
      name={share.title}
      tags={
        <Badge tone={state === "active" ? "success" : "neutral"}>
          {t(STATES[state])}
        </Badge>
      }
      meta={
        <p class="cc-row-meta">
          {withNode("control.sharedAt", "time", <When at={share.created_at} />)}
          {" · "}
          {share.expires_at !== null
            ? withNode(
              state === "expired" ? "control.expiredAt" : "control.expiresAt",
              "time",
              <When at={share.expires_at} />,
            )
            : t("control.noExpiry")}
          {" · "}
          {includes}
        </p>
      }
      actions={state === "active"
        ? (
          <>
            <button
              type="button"
              class="btn cc-btn cc-btn-quiet"
              data-cc-action="share-copy"
              data-url={share.url}
              aria-label={t("control.copyLinkTo", { title: share.title })}
            >
              {t("control.copyLink")}
            </button>
            <ConfirmAction
              label={t("control.revoke")}
              question={t("control.revokeQuestion")}
              confirm={t("control.revoke")}
              action="share-revoke"
              data={{ token: share.token }}
            />
          </>
        )
        : null}
    />
  );
}

export function SharesPanel({ data }: { data: SharesData }) {
  return (
    <Section
      hook="shares"
      title={t("control.shareLinks")}
      description={t("control.shareLinksHint")}
    >
      {data.shares.length === 0
        ? <p class="cc-empty">{t("control.sharesEmpty")}</p>
        : (
          <ul class="cc-rows" data-cc-list="shares">
            {data.shares.map((s) => <ShareRow key={s.token} share={s} />)}
          </ul>
        )}
      <StatusLine hook="shares" />
    </Section>
  );
}
