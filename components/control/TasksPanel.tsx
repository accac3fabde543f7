// Control Center › Tasks: scheduled tasks (lib/tasks/). Each row: name, schedule, next run and
// the last outcome, with pause/resume, Run now, Edit and History. The form takes a name, the
// prompt, a schedule (cron, "every 15 minutes" or a time, read in the browser's zone), the
// workspace, model, where the output goes and whether to deny anything that would ask.
// Driven by lib/browser/control/tasks_panel.ts; every change re-renders this panel server-side.
import type { AppContext } from "../../lib/server/app_context.ts";
import { getJob, listJobs, runHistory } from "../../lib/tasks/jobs.ts";
import { jobView, runView } from "../../lib/tasks/job_view.ts";
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

type JobView = ReturnType<typeof jobView>;
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

export function loadTasks(
  app: AppContext,
  edit: string | null,
  historyOf: string | null,
): TasksData {
  const jobs = listJobs(app.db).map((j) => jobView(app.db, app.tasks, j));
  const workspaces = listWorkspaces(app).map((w) => ({ path: w.path, name: w.name }));
  const data: TasksData = { jobs, workspaces, editing: null, history: null };
  try {
    if (edit === "") data.editing = { job: null };
    else if (edit) data.editing = { job: jobView(app.db, app.tasks, getJob(app.db, edit)) };
    if (historyOf) {
      const job = jobView(app.db, app.tasks, getJob(app.db, historyOf));
      data.history = { job, runs: runHistory(app.db, historyOf, 0, 10).map(runView) };
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
      aria-label={job ? `Edit task ${job.name}` : "New scheduled task"}
      novalidate
    >
      <h5 class="cc-subform-title">{job ? `Edit ${job.name}` : "New scheduled task"}</h5>
      <Field id="cc-task-name" label="Name" wide>
        <input
          id="cc-task-name"
          name="name"
          class="cc-input"
          value={job?.name ?? ""}
          maxLength={200}
          placeholder="Morning digest"
          data-cc-autofocus=""
        />
      </Field>
      <Field id="cc-task-prompt" label="Prompt" hint="What the agent is asked at each run." wide>
        <textarea id="cc-task-prompt" name="prompt" class="cc-input" rows={5} required>
          {job?.prompt ?? ""}
        </textarea>
      </Field>
      <Field
        id="cc-task-schedule"
        label="Schedule"
        hint="Cron (0 9 * * 1-5), “every 15 minutes”, or a time (2026-12-24 09:00), in your time zone."
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
      <Field id="cc-task-workspace" label="Workspace">
        <select id="cc-task-workspace" name="workspace" class="cc-input">
          <option value="">Default workspace</option>
          {workspaces.map((w) => (
            <option key={w.path} value={w.path} selected={job?.workspace === w.path}>
              {w.name} — {w.path}
            </option>
          ))}
        </select>
      </Field>
      <Field id="cc-task-model" label="Model" hint="Empty: the default model.">
        <input
          id="cc-task-model"
          name="model"
          class="cc-input mono"
          value={job?.model ?? ""}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="cc-task-deliver" label="Output">
        <select id="cc-task-deliver" name="deliver" class="cc-input">
          <option value="new_session" selected={job?.deliver !== "session"}>
            A new session for each run
          </option>
          <option value="session" selected={job?.deliver === "session"}>
            One session that accumulates
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
        <span class="cc-toggle-text">Deny anything that would ask (nobody is watching)</span>
      </label>
      <input type="hidden" name="timezone" value={job?.timezone ?? ""} data-cc-timezone />
      <FormFoot
        remove={job
          ? {
            question: (
              <>
                Delete <strong>{job.name}</strong> and its history? Its sessions stay.
              </>
            ),
            confirm: "Delete task",
            action: "task-delete",
            name: job.id,
          }
          : undefined}
        status="task-form"
        cancelAction="task-cancel"
        submit={job ? "Save task" : "Create task"}
      />
    </form>
  );
}

function History({ history }: { history: NonNullable<TasksData["history"]> }) {
  return (
    <div class="cc-subform cc-task-history" data-task-history={history.job.id}>
      <h5 class="cc-subform-title">History of {history.job.name}</h5>
      {history.runs.length === 0 ? <p class="cc-empty">No runs yet.</p> : (
        <ul class="cc-rows">
          {history.runs.map((r) => (
            <li class="cc-row" key={r.run_id} data-task-run={r.run_id} data-status={r.status}>
              <div class="cc-row-main">
                <div class="cc-row-title">
                  <Badge tone={STATUS_TONE[r.status] ?? "neutral"}>{r.status}</Badge>
                  <span class="cc-row-meta">
                    <When iso={r.started_at} empty="" />
                  </span>
                  {r.duration_s !== null
                    ? <span class="cc-row-meta">{Math.round(r.duration_s)} s</span>
                    : null}
                  {r.output_tokens
                    ? (
                      <span class="cc-row-meta">
                        {r.input_tokens + r.output_tokens} tokens
                        {r.cost !== null ? ` · $${r.cost.toFixed(4)}` : ""}
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
                      Open session
                    </a>
                  )
                  : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <div class="cc-form-foot">
        <button type="button" class="btn cc-btn" data-cc-action="task-history-close">Close</button>
      </div>
    </div>
  );
}

export function TasksPanel({ data }: { data: TasksData }) {
  return (
    <Section
      hook="tasks"
      title="Scheduled tasks"
      description="Prompts the agent runs on a schedule, each run an ordinary session you can open."
      actions={
        <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="task-new">
          New task
        </button>
      }
    >
      {data.error ? <p class="cc-callout" data-tone="error">{data.error}</p> : null}
      {data.jobs.length === 0 && !data.editing
        ? <p class="cc-empty">No scheduled tasks yet.</p>
        : null}
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
                    <span class="cc-chip mono">{j.schedule_display}</span>
                    {j.state === "paused" || j.state === "running" || j.state === "completed"
                      ? <span class="cc-chip">{j.state}</span>
                      : null}
                    {j.last_status
                      ? (
                        <Badge tone={STATUS_TONE[j.last_status] ?? "neutral"}>
                          last: {j.last_status}
                        </Badge>
                      )
                      : null}
                  </>
                }
                meta={
                  <p class="cc-row-meta">
                    Next run: <When iso={j.next_run_at} empty="none" />
                  </p>
                }
                actions={
                  <>
                    <RowToggle action="task-toggle" name={j.id} enabled={j.enabled} />
                    <RowButton action="task-run" name={j.id} label="Run now" />
                    <RowButton action="task-history" name={j.id} label="History" />
                    <RowButton action="task-edit" name={j.id} label="Edit" />
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
