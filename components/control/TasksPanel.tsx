// Control Center › Tasks: scheduled tasks (lib/tasks/). Each row: name, schedule, next run and
// the last outcome, with pause/resume, Run now, Edit and History. The form takes a name, the
// prompt, a schedule (cron, "every 15 minutes" or a time, read in the browser's zone), the
// workspace, model, where the output goes and whether to deny anything that would ask.
// Driven by lib/browser/control/tasks_panel.ts; every change re-renders this panel server-side.
import type { VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { formatDate, formatNumber, t } from "../../lib/i18n/t.ts";
import { getJob, listJobs, runHistory } from "../../lib/tasks/jobs.ts";
import { type JobView, jobView, jobViews, runView } from "../../lib/tasks/job_view.ts";
import { listWorkspaces } from "../../lib/workspace/workspaces.ts";
import { NotFoundError } from "../../lib/errors.ts";
import {
  Badge,
  Field,
  FormFoot,
  ListRow,
  RowButton,
  RowToggle,
  Section,
  StatusLine,
  type Tone,
} from "./parts.tsx";

type RunView = ReturnType<typeof runView>;

export interface TasksData {
  jobs: JobView[];
  workspaces: { path: string; name: string }[];
  /** The form: an existing job, a new one (`job` null), or closed. */
  editing: { job: JobView | null } | null;
  /** The job whose history is open, with its latest runs. */
  history: { job: JobView; runs: RunView[] } | null;
  error?: string;
}

export async function loadTasks(
  app: AppContext,
  edit: string | null,
  historyOf: string | null,
): Promise<TasksData> {
  const jobs = await jobViews(app.db, app.tasks, await listJobs(app.db));
  const workspaces = (await listWorkspaces(app)).map((w) => ({ path: w.path, name: w.name }));
  const data: TasksData = { jobs, workspaces, editing: null, history: null };
  try {
    if (edit === "") data.editing = { job: null };
    else if (edit) {
      data.editing = { job: await jobView(app.db, app.tasks, await getJob(app.db, edit)) };
    }
    if (historyOf) {
      const job = await jobView(app.db, app.tasks, await getJob(app.db, historyOf));
      data.history = { job, runs: (await runHistory(app.db, historyOf, 0, 10)).map(runView) };
    }
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    data.error = err.message;
  }
  return data;
}

const STATUS_TONE: Record<string, Tone> = {
  completed: "success",
  running: "neutral",
  error: "error",
  interrupted: "warning",
  missed: "warning",
  skipped: "neutral",
};

function When({ iso, empty }: { iso: string | null; empty: string }) {
  return iso
    ? <time dateTime={iso} data-cc-localtime>{iso.slice(0, 16).replace("T", " ")}</time>
    : <span>{empty}</span>;
}

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

const UNITS_MS = [["week", 604_800_000], ["day", 86_400_000], ["hour", 3_600_000]] as const;

/**
 * The schedule as a person reads it, in the page's language: an interval ("every 2 hours"),
 * a one-off time, or the cron expression as written.
 */
function scheduleText(job: JobView): string {
  const { kind, expr } = job.schedule;
  const n = Number(expr);
  if (kind === "interval" && n > 0) {
    const [unit, ms] = UNITS_MS.find(([, ms]) => n % ms === 0) ?? ["minute", 60_000];
    return t("tasks.every", { unit, count: n / ms });
  }
  if (kind === "once" && Number.isFinite(n)) {
    const time = formatDate(n, { dateStyle: "medium", timeStyle: "short", timeZone: job.timezone });
    return t("tasks.onceAt", { time });
  }
  return job.schedule_display;
}

/** A run's cost in dollars, four decimals (the providers' prices are tiny). */
const usd = (n: number) =>
  formatNumber(n, { style: "currency", currency: "USD", minimumFractionDigits: 4 });

function TaskForm(
  { job, workspaces }: { job: JobView | null; workspaces: TasksData["workspaces"] },
) {
  const schedule = job
    ? (job.schedule.kind === "cron" ? job.schedule.expr : job.schedule_display)
    : "";
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="task-save"
      data-mode={job ? "edit" : "new"}
      data-job={job?.id ?? ""}
      aria-label={job ? t("tasks.editAria", { name: job.name }) : t("tasks.newTitle")}
      novalidate
    >
      <h5 class="cc-subform-title">
        {job ? t("tasks.editTitle", { name: job.name }) : t("tasks.newTitle")}
      </h5>
      <Field id="cc-task-name" label={t("common.name")} wide>
        <input
          id="cc-task-name"
          name="name"
          class="cc-input"
          value={job?.name ?? ""}
          maxLength={200}
          placeholder={t("tasks.namePlaceholder")}
          data-cc-autofocus=""
        />
      </Field>
      <Field
        id="cc-task-prompt"
        label={t("tasks.prompt")}
        hint={t("tasks.promptHint")}
        wide
      >
        <textarea id="cc-task-prompt" name="prompt" class="cc-input" rows={5} required>
          {job?.prompt ?? ""}
        </textarea>
      </Field>
      <Field
        id="cc-task-schedule"
        label={t("tasks.schedule")}
        hint={t("tasks.scheduleHint")}
        wide
      >
        <input
          id="cc-task-schedule"
          name="schedule"
          class="cc-input mono"
          value={schedule}
          required
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-task-workspace" label={t("tasks.workspace")}>
        <select id="cc-task-workspace" name="workspace" class="cc-input">
          <option value="">{t("tasks.defaultWorkspace")}</option>
          {workspaces.map((w) => (
            <option key={w.path} value={w.path} selected={job?.workspace === w.path}>
              {w.name} — {w.path}
            </option>
          ))}
        </select>
      </Field>
      <Field id="cc-task-model" label={t("tasks.model")} hint={t("tasks.modelHint")}>
        <input
          id="cc-task-model"
          name="model"
          class="cc-input mono"
          value={job?.model ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-task-deliver" label={t("tasks.output")}>
        <select id="cc-task-deliver" name="deliver" class="cc-input">
          <option value="new_session" selected={job?.deliver !== "session"}>
            {t("tasks.deliverNewSession")}
          </option>
          <option value="session" selected={job?.deliver === "session"}>
            {t("tasks.deliverSession")}
          </option>
        </select>
      </Field>
      <label class="cc-toggle">
        <input
          type="checkbox"
          role="switch"
          name="deny_approvals"
          checked={job ? job.deny_approvals : true}
        />
        <span class="cc-toggle-track" aria-hidden="true" />
        <span class="cc-toggle-text">{t("tasks.denyApprovals")}</span>
      </label>
      <input type="hidden" name="timezone" value={job?.timezone ?? ""} data-cc-timezone />
      <FormFoot
        remove={job
          ? {
            question: tWith("tasks.deleteQuestion", { name: <strong>{job.name}</strong> }),
            confirm: t("tasks.deleteTask"),
            action: "task-delete",
            name: job.id,
          }
          : undefined}
        status="task-form"
        cancelAction="task-cancel"
        submit={job ? t("tasks.saveTask") : t("tasks.createTask")}
      />
    </form>
  );
}

function History({ history }: { history: NonNullable<TasksData["history"]> }) {
  return (
    <div class="cc-subform cc-task-history" data-task-history={history.job.id}>
      <h5 class="cc-subform-title">{t("tasks.historyOf", { name: history.job.name })}</h5>
      {history.runs.length === 0
        ? <p class="cc-empty">{t("tasks.noRuns")}</p>
        : (
          <ul class="cc-rows">
            {history.runs.map((r) => (
              <li class="cc-row" key={r.run_id} data-task-run={r.run_id} data-status={r.status}>
                <div class="cc-row-main">
                  <div class="cc-row-title">
                    <Badge tone={STATUS_TONE[r.status] ?? "neutral"}>
                      {t("tasks.runStatus", { status: r.status })}
                    </Badge>
                    <span class="cc-row-meta">
                      <When iso={r.started_at} empty="" />
                    </span>
                    {r.duration_s !== null
                      ? (
                        <span class="cc-row-meta">
                          {t("tasks.seconds", { count: Math.round(r.duration_s) })}
                        </span>
                      )
                      : null}
                    {r.output_tokens
                      ? (
                        <span class="cc-row-meta">
                          {t("tasks.tokens", { count: r.input_tokens + r.output_tokens })}
                          {r.cost !== null ? ` · ${usd(r.cost)}` : ""}
                        </span>
                      )
                      : null}
                  </div>
                  {r.output_head ? <p class="cc-row-meta cc-task-output">{r.output_head}</p> : null}
                  {r.reason && r.status !== "completed"
                    ? <p class="cc-row-meta">{r.reason}</p>
                    : null}
                </div>
                <div class="cc-row-actions">
                  {r.session_id
                    ? (
                      <a
                        class="btn cc-btn cc-btn-quiet"
                        href={`/?session=${encodeURIComponent(r.session_id)}`}
                      >
                        {t("tasks.openSession")}
                      </a>
                    )
                    : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      <div class="cc-form-foot">
        <button type="button" class="btn cc-btn" data-cc-action="task-history-close">
          {t("common.close")}
        </button>
      </div>
    </div>
  );
}

export function TasksPanel({ data }: { data: TasksData }) {
  return (
    <Section
      hook="tasks"
      title={t("tasks.title")}
      description={t("tasks.description")}
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="task-new">
          {t("tasks.newTask")}
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      {data.jobs.length === 0 && !data.editing ? <p class="cc-empty">{t("tasks.empty")}</p> : null}
      {data.jobs.length > 0
        ? (
          <ul class="cc-rows" data-cc-list="tasks">
            {data.jobs.map((j) => (
              <ListRow
                key={j.id}
                attrs={{ "data-task": j.id, "data-state": j.state }}
                name={j.name}
                tags={
                  <>
                    <span class="cc-chip mono">{scheduleText(j)}</span>
                    {j.state === "paused" || j.state === "running" || j.state === "completed"
                      ? <span class="cc-chip">{t("tasks.state", { state: j.state })}</span>
                      : null}
                    {j.last_status
                      ? (
                        <Badge tone={STATUS_TONE[j.last_status] ?? "neutral"}>
                          {t("tasks.lastStatus", { status: j.last_status })}
                        </Badge>
                      )
                      : null}
                  </>
                }
                meta={
                  <p class="cc-row-meta">
                    {tWith("tasks.nextRun", {
                      time: <When iso={j.next_run_at} empty={t("tasks.nextRunNone")} />,
                    })}
                  </p>
                }
                actions={
                  <>
                    <RowToggle action="task-toggle" name={j.id} enabled={j.enabled} />
                    <RowButton action="task-run" name={j.id} label={t("tasks.runNow")} />
                    <RowButton action="task-history" name={j.id} label={t("tasks.history")} />
                    <RowButton action="task-edit" name={j.id} label={t("common.edit")} />
                  </>
                }
              />
            ))}
          </ul>
        )
        : null}
      {data.editing ? <TaskForm job={data.editing.job} workspaces={data.workspaces} /> : null}
      {data.history ? <History history={data.history} /> : null}
      <StatusLine hook="tasks" />
    </Section>
  );
}
