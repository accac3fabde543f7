// Above the composer: the `/btw` side question's answer (a dismissible panel; the chat's
// transcript never changes) and the session's background tasks (running ones with a spinner,
// finished ones with their answer and a Dismiss button). Rendered inside the Composer island
// from lib/browser/composer/side_runs.ts.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";

export function BtwPanel({ model: m }: { model: ComposerModel }) {
  const b = m.side.btw.value;
  if (!b) return null;
  return (
    <section
      class="side-panel btw-panel"
      data-status={b.status}
      aria-label={t("composer.sideQuestion")}
    >
      <header class="side-panel-head">
        <span class="side-panel-kind">{t("composer.byTheWay")}</span>
        <span class="side-panel-question">{b.question}</span>
        <button
          type="button"
          class="attachment-remove"
          data-action="dismiss-btw"
          aria-label={t("composer.dismissSide")}
          title={t("composer.dismiss")}
          onClick={() => m.side.dismissBtw()}
        >
          <Icon name="x" size={12} />
        </button>
      </header>
      <div class="side-panel-body" role="status" aria-live="polite">
        {b.status === "error"
          ? <p class="side-panel-error">{b.error ?? t("composer.sideFailed")}</p>
          : b.answer
          ? <p class="side-panel-answer">{b.answer}</p>
          : <p class="side-panel-wait">{t("composer.thinking")}</p>}
      </div>
    </section>
  );
}

export function BackgroundTasks({ model: m }: { model: ComposerModel }) {
  const tasks = m.side.tasks.value;
  if (!tasks.length) return null;
  return (
    <section class="side-panel bg-tasks" aria-label={t("composer.backgroundTasks")}>
      <ul>
        {tasks.map((task) => {
          const running = task.status === "running";
          return (
            <li
              class="bg-task"
              data-status={task.status}
              data-task={task.task_id}
              key={task.task_id}
            >
              <span class="bg-task-state">
                {t("composer.taskStatus", { status: task.status })}
              </span>
              <span class="bg-task-prompt">{task.prompt}</span>
              <button
                type="button"
                class="attachment-remove"
                data-action="dismiss-task"
                aria-label={t(running ? "composer.cancelTask" : "composer.dismissTask")}
                title={t(running ? "common.cancel" : "composer.dismiss")}
                onClick={() => void m.side.dismissTask(task.task_id)}
              >
                <Icon name="x" size={12} />
              </button>
              {task.answer ? <span class="bg-task-answer">{task.answer}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
