// What the central column shows before the first message: a quiet invitation that says
// where the agent will work (workspace, model), so the first chat starts with context.

export interface EmptyStateProps {
  workspace: string | null;
  model: string | null;
  projectName?: string | null;
  /** A notice above the invitation, e.g. that the requested chat no longer exists. */
  notice?: string | null;
  /** Set when no provider is usable: say so plainly, and how to configure one. */
  noProvider?: { configPath: string } | null;
}

export function EmptyState(
  { workspace, model, projectName, notice, noProvider }: EmptyStateProps,
) {
  return (
    <div class="empty-state">
      {notice ? <p class="notice" role="status">{notice}</p> : null}
      {noProvider
        ? (
          <p class="notice" role="status" data-notice="no-provider">
            No model is configured yet, so the agent cannot answer.{" "}
            <a href="/onboarding">
              Set one up
            </a>, or add a <code>model:</code> section to{" "}
            <code>{noProvider.configPath}</code>, or set <code>OPENAI_API_KEY</code>,{" "}
            <code>ANTHROPIC_API_KEY</code> or <code>OPENROUTER_API_KEY</code> and restart.
          </p>
        )
        : null}
      <div class="brand-mark brand-mark-lg" aria-hidden="true">H</div>
      <h2 class="empty-title">What are we working on?</h2>
      <p class="empty-lede">
        Hermes works inside your workspace: it reads and edits files and runs commands, and asks
        before anything risky. Describe the task to begin.
      </p>
      <dl class="empty-context">
        {projectName
          ? (
            <div>
              <dt>Project</dt>
              <dd>{projectName}</dd>
            </div>
          )
          : null}
        <div>
          <dt>Workspace</dt>
          <dd class="mono">{workspace ?? "not set"}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd class="mono">{model ?? "provider default"}</dd>
        </div>
      </dl>
    </div>
  );
}
