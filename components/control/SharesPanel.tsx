// The Control Center's Sharing tab: every share link (lib/sharing/shares.ts), newest first, with
// the conversation's title as it was shared, when it was made and when it expires, what it
// includes, and — while it works — Copy link and a two-step Revoke. Revoked and expired links
// stay listed, marked, so the owner can see what was once public.
import type { AppContext } from "../../lib/server/app_context.ts";
import { listShares, type Share } from "../../lib/sharing/shares.ts";
import { Badge, ConfirmAction, ListRow, Section, StatusLine } from "./parts.tsx";

export interface SharesData {
  shares: Share[];
}

export function loadShares(app: AppContext): SharesData {
  return { shares: listShares(app.db, app.clock) };
}

const iso = (t: number) => new Date(t * 1000).toISOString();

/** A time the page script rewrites in the reader's zone (UTC until it does). */
function When({ t }: { t: number }) {
  return (
    <time dateTime={iso(t)} data-cc-localtime="">
      {iso(t).slice(0, 16).replace("T", " ")} UTC
    </time>
  );
}

function ShareRow({ share }: { share: Share }) {
  const state = share.revoked_at !== null ? "revoked" : share.active ? "active" : "expired";
  const includes = share.include_files
    ? "tool outputs and file contents"
    : share.include_tools
    ? "tool outputs"
    : "conversation only";
  return (
    <ListRow
      attrs={{ "data-share": share.token, "data-state": state }}
      name={share.title}
      tags={
        <Badge tone={state === "active" ? "success" : "neutral"}>
          {state === "active" ? "Active" : state === "revoked" ? "Revoked" : "Expired"}
        </Badge>
      }
      meta={
        <p class="cc-row-meta">
          Shared <When t={share.created_at} />
          {share.expires_at !== null
            ? (
              <>
                {" · "}
                {state === "expired" ? "expired" : "expires"} <When t={share.expires_at} />
              </>
            )
            : " · no expiry"}
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
              aria-label={`Copy link to ${share.title}`}
            >
              Copy link
            </button>
            <ConfirmAction
              label="Revoke"
              question="Stop this link working?"
              confirm="Revoke"
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
      title="Share links"
      description={
        <>
          Read-only snapshots of a conversation, opened without signing in. Share one from a chat's
          menu in the sidebar (Share…). A revoked link stops working at once.
        </>
      }
    >
      {data.shares.length === 0
        ? <p class="cc-empty">No conversation has been shared.</p>
        : (
          <ul class="cc-rows" data-cc-list="shares">
            {data.shares.map((s) => <ShareRow key={s.token} share={s} />)}
          </ul>
        )}
      <StatusLine hook="shares" />
    </Section>
  );
}
