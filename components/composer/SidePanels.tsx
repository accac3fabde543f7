// Above the composer: the `/btw` side question's answer (a dismissible panel; the chat's
// transcript never changes) and the session's background tasks (running ones with a spinner,
// finished ones with their answer and a Dismiss button). Rendered inside the Composer island
// from lib/browser/composer/side_runs.ts.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";

export function BtwPanel({ model: m }: { model: ComposerModel }) {
  const b = m.side.btw.value;
  if (!b) return null;
  return (
    <section class="side-panel btw-panel" data-status={b.status} aria-label="Side question">
      <header class="side-panel-head">
        <span class="side-panel-kind">By the way</span>
        <span class="side-panel-question">{b.question}</span>
        <button
          type="button"
          class="attachment-remove"
          data-action="dismiss-btw"
          aria-label="Dismiss the side answer"
          title="Dismiss"
          onClick={() => m.side.dismissBtw()}
        >
          <Icon name="x" size={12} />
        </button>
      </header>
      <div class="side-panel-body" role="status" aria-live="polite">
        {b.status === "error"
          ? <p class="side-panel-error">{b.error ?? "The side question failed"}</p>
          : b.answer
          ? <p class="side-panel-answer">{b.answer}</p>
          : <p class="side-panel-wait">Thinking…</p>}
      </div>
    </section>
  );
}

export function BackgroundTasks({ model: m }: { model: ComposerModel }) {
  const tasks = m.side.tasks.value;
  if (!tasks.length) return null;
  return (
    <section class="side-panel bg-tasks" aria-label="Background tasks">
      <ul>
        {tasks.map((t) => (
          <li class="bg-task" data-status={t.status} data-task={t.task_id} key={t.task_id}>
            <span class="bg-task-state">
              {t.status === "running" ? "Running" : t.status === "done" ? "Done" : t.status}
            </span>
            <span class="bg-task-prompt">{t.prompt}</span>
            <button
              type="button"
              class="attachment-remove"
              data-action="dismiss-task"
              aria-label={t.status === "running"
                ? "Cancel the background task"
                : "Dismiss the background task"}
              title={t.status === "running" ? "Cancel" : "Dismiss"}
              onClick={() =>
                void m.side.dismissTask(t.task_id)}
            >
              <Icon name="x" size={12} />
            </button>
            {t.answer ? <span class="bg-task-answer">{t.answer}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
