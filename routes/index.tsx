// The console at `/`: the sidebar's sessions and projects, and in the main column either the
// open conversation (`?session=<id>`) or the empty state inviting the first chat. The
// sidebar's filters are plain query parameters (`project`, `q`, `archived`), so links and
// reloads keep the view and nothing needs JavaScript to work. The workspace panel's open
// state comes from its cookie, and an open panel arrives with its root folder listed.
import { isLocale } from "../lib/i18n/locales.ts";
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import { findSession, type SessionRow } from "../lib/sessions/sessions.ts";
import { type Project, projectSessionDefaults } from "../lib/sessions/projects.ts";
import { loadTranscriptPage, type TranscriptPage } from "../lib/server/transcript_page.ts";
import { listDirectory, type Listing } from "../lib/workspace/files.ts";
import { AppShell } from "../components/AppShell.tsx";
import { EmptyState } from "../components/EmptyState.tsx";
import { MessageList } from "../components/MessageList.tsx";
import Transcript from "../islands/Transcript.tsx";
import { loadSidebar, type SidebarProps } from "../components/Sidebar.tsx";
import { displayPath } from "../components/Topbar.tsx";
import { PANEL_COOKIE, PANEL_WIDTH_COOKIE, panelWidthFrom } from "../components/WorkspacePanel.tsx";
import { readSettingsAndPreferences } from "../lib/settings/settings.ts";
import type { MessageMode } from "../lib/browser/composer/message_mode.ts";
import { onboardingNeeded } from "../lib/settings/onboarding.ts";
import { resolveProviders } from "../lib/providers/provider_config.ts";
import type { SendKey } from "../lib/browser/composer_state.ts";
import { getGoal, goalPayload } from "../lib/goals/goal_store.ts";
import type { GoalView } from "../lib/shared/goal_view.ts";
import { activeProfileName, getProfileSettings, sessionProfile } from "../lib/agent/profiles.ts";
import { t } from "../lib/i18n/t.ts";

/** How many of the latest messages the first paint of a conversation shows (whole turns). */
const FIRST_PAINT_MESSAGES = 30;

interface HomeData {
  sidebar: SidebarProps;
  session: SessionRow | null;
  /** The open conversation's first paint: latest turns, the run in progress, pending cards. */
  transcript: TranscriptPage | null;
  missingSessionId: string | null;
  panelOpen: boolean;
  panelWidth: number | null;
  rootListing: Listing | null;
  defaultWorkspace: string;
  defaultModel: string | null;
  home: string;
  /** The composer's send key (settings) and whether the terminal runs sandboxed. */
  sendKey: SendKey;
  /** `default_message_mode`: what Send does while an answer runs (queue, steer, interrupt). */
  messageMode: MessageMode;
  /** `large_text_paste_as_attachment` and `new_chat_on_workspace_switch`. */
  composerPrefs: { largePasteAsFile: boolean; newChatOnWorkspaceSwitch: boolean };
  sandbox: { bubblewrap: boolean; message: string; warning: string | null };
  /** No usable provider: the page says so and how to set one up. */
  noProvider: { configPath: string } | null;
  /** The open session's standing goal (the top bar's chip). */
  goal: GoalView | null;
  /** The session's profile (a new chat: the active one, with its default model). */
  profile: { name: string; model: string | null; several: boolean };
}

/** The value of cookie `name` in the request, or null. */
function cookie(req: Request, name: string): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export const handler: Handlers<HomeData> = {
  async GET(req, ctx) {
    const { db, config } = ctx.app;
    // First run with no usable provider: the setup wizard first (it can be skipped).
    if (await onboardingNeeded(ctx.app)) {
      return new Response(null, {
        status: 302,
        headers: { location: "/onboarding", "cache-control": "no-store" },
      });
    }
    const params = ctx.url.searchParams;
    const sessionId = params.get("session");
    const found = sessionId ? await findSession(db, sessionId) : null;
    const session = found;
    const transcript = found
      ? await loadTranscriptPage(
        ctx.app,
        found,
        FIRST_PAINT_MESSAGES,
        isLocale(ctx.state.locale) ? ctx.state.locale : undefined,
      )
      : null;
    const sidebar = await loadSidebar(
      ctx.app,
      params,
      session?.session_id ?? null,
      req.headers.get("cookie"),
    );

    const panelOpen = cookie(req, PANEL_COOKIE) === "open";
    // An open panel is painted with its root folder; a failure leaves it to the browser,
    // which reports it in place.
    const rootListing = panelOpen && session
      ? await listDirectory(session.workspace, ".", { protect: config }).catch(() => null)
      : null;

    if (session) ctx.state.title = session.title;
    const profileName = session
      ? await sessionProfile(db, session.session_id)
      : await activeProfileName(db, config);
    const profiles = config.file.profiles;
    const { settings: stored, preferences: prefs } = await readSettingsAndPreferences(db);
    return ctx.render({
      sidebar,
      session,
      transcript,
      missingSessionId: sessionId && !found ? sessionId : null,
      panelOpen,
      panelWidth: panelWidthFrom(cookie(req, PANEL_WIDTH_COOKIE)),
      rootListing,
      defaultWorkspace: config.defaultWorkspace,
      defaultModel: config.defaultModel ?? null,
      home: config.home,
      sendKey: stored.send_key,
      // The preference's rule admits only the three modes.
      messageMode: prefs.default_message_mode as MessageMode,
      composerPrefs: {
        largePasteAsFile: prefs.large_text_paste_as_attachment !== false,
        newChatOnWorkspaceSwitch: prefs.new_chat_on_workspace_switch === true,
      },
      goal: session ? goalPayload(await getGoal(db, session.session_id)) as GoalView | null : null,
      profile: {
        name: profileName,
        model: session ? null : getProfileSettings(config, profileName).model ?? null,
        several: !!profiles && typeof profiles === "object" &&
          Object.keys(profiles).some((k) => k !== "default"),
      },
      noProvider: resolveProviders(config).active === null
        ? { configPath: config.configPath }
        : null,
      sandbox: await ctx.app.tools.commands.status().then((s) => ({
        bubblewrap: s.bubblewrap,
        message: s.message,
        warning: s.warning,
      })),
    }, sessionId && !found ? { status: 404 } : undefined);
  },
};

export default function Home({ data }: PageProps<HomeData>) {
  const { session, sidebar, transcript } = data;
  const projects: Project[] = sidebar.projects;
  const project =
    projects.find((p) =>
      p.project_id === (session ? session.project_id : sidebar.activeProjectId)
    ) ??
      null;
  const defaults = project && !session ? projectSessionDefaults(project) : null;
  const workspace = session?.workspace ?? defaults?.workspace ?? data.defaultWorkspace;
  const model = session?.model ?? defaults?.model ?? data.profile.model ?? data.defaultModel;

  return (
    <AppShell
      sessionId={session?.session_id ?? null}
      projectId={session ? session.project_id : sidebar.activeProjectId}
      sidebar={sidebar}
      topbar={{
        title: session ? session.title : t("home.newChat"),
        workspace: displayPath(workspace, data.home),
        model,
        projectName: project?.name ?? null,
        projectColor: project?.color ?? null,
        home: data.home,
        goal: data.goal,
      }}
      composer={{
        profile: data.profile.name,
        showProfile: data.profile.several,
        model,
        modelProvider: session ? session.model_provider : defaults?.model_provider ?? null,
        workspace,
        home: data.home,
        sendKey: data.sendKey,
        messageMode: data.messageMode,
        ...data.composerPrefs,
        sandbox: data.sandbox,
        activeStreamId: session?.active_stream_id ?? null,
        skipApprovals: session?.skip_approvals ?? false,
        allowNetwork: session?.allow_network ?? false,
      }}
      panelOpen={data.panelOpen}
      panel={{
        sessionId: session?.session_id ?? null,
        workspaceLabel: displayPath(workspace, data.home),
        workspace: session ? null : workspace,
        rootEntries: data.rootListing?.entries ?? null,
        truncated: data.rootListing?.truncated ?? false,
        width: data.panelWidth,
      }}
    >
      {transcript && (transcript.turns.length || transcript.live || transcript.olderBefore !== null)
        ? <MessageList page={transcript} />
        : (
          <EmptyState
            workspace={displayPath(workspace, data.home)}
            model={model}
            projectName={project?.name ?? null}
            noProvider={data.noProvider}
            notice={data.missingSessionId ? t("home.missingSession") : null}
          />
        )}
      {transcript
        ? (
          <Transcript
            sessionId={transcript.sessionId}
            olderBefore={transcript.olderBefore}
            live={transcript.live}
            approval={transcript.approval}
            clarify={transcript.clarify}
            skipApprovals={transcript.skipApprovals}
          />
        )
        : null}
    </AppShell>
  );
}
