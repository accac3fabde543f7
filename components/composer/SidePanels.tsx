// Above the composer: the `/btw` side question's answer (a dismissible panel; the chat's
// transcript never changes) and the session's background tasks (running ones with their state,
// finished ones with their answer and a Dismiss button). Answers render as markdown, like the
// transcript's (SideAnswer.tsx). Invariant: together the cards take at most half the window's
// height and scroll inside (static/composer.css), so the composer and its Send button always
// stay on screen. Loaded on first use by SideResultsSlot.tsx, from
// lib/browser/composer/side_runs.ts's state.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { SideAnswer } from "./SideAnswer.tsx";
import { t } from "../../lib/i18n/t.ts";

function BtwPanel({ model: m }: { model: ComposerModel }) {
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
          ? (
            <SideAnswer
              key={b.question}
              class="side-panel-answer"
              text={b.answer}
              final={b.status === "done"}
            />
          )
          : <p class="side-panel-wait">{t("composer.thinking")}</p>}
      </div>
    </section>
  );
}

function BackgroundTasks({ model: m }: { model: ComposerModel }) {
  const tasks = m.side.tasks.value;
  if (!tasks.length) return null;
  return (
    <section class="side-panel bg-tasks" aria-label={t("composer.backgroundTasks")}>
      <ul class="side-panel-body">
        {tasks.map((task) => {
          const running = task.status === "running";
          return (
            <li
              class="bg-task"
              data-status={task.status}
              data-task={task.task_id}
              key={task.task_id}
            >
              <div class="bg-task-head">
                <span class="bg-task-state">
                  {t("composer.taskStatus", { status: task.status })}
                </span>
                <span class="bg-task-prompt" title={task.prompt}>{task.prompt}</span>
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
              </div>
              {task.answer
                ? (
                  <div class="bg-task-answer">
                    <SideAnswer text={task.answer} final />
                  </div>
                )
                : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The side question's card and the background tasks' card, stacked within their cap. */
export function SidePanels({ model }: { model: ComposerModel }) {
  return (
    <div class="side-results">
      <BtwPanel model={model} />
      <BackgroundTasks model={model} />
    </div>
  );
}
