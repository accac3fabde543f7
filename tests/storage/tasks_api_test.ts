// /api/crons/* through the real engine: a scheduled task's run is an ordinary agent run against
// the fake provider (journaled, metered, in its own session), unattended jobs deny what would
// ask, and bad input gets a clear 4xx.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startHarness } from "../fixtures/engine_harness.ts";

Deno.test("a scheduled task runs as an agent run; history records it; unattended jobs deny", async (t) => {
  const h = await startHarness();
  try {
    let jobId = "";
    await t.step("create validates and answers the original's shape", async () => {
      strictEqual(
        (await h.call("POST", "/api/crons/create", { schedule: "every 1h" })).status,
        400,
      );
      const bad = await h.call("POST", "/api/crons/create", { prompt: "x", schedule: "sometimes" });
      strictEqual(bad.status, 400);
      ok(String(bad.body.error).includes("sometimes"), bad.body.error);
      strictEqual(
        (await h.call("POST", "/api/crons/create", { prompt: "x", schedule: "2001-01-01 00:00" }))
          .status,
        400,
      );
      const res = await h.call("POST", "/api/crons/create", {
        name: "Nightly tidy",
        prompt: "Tidy the build folder",
        schedule: "0 3 * * *",
        timezone: "America/New_York",
      });
      strictEqual(res.status, 200);
      strictEqual(res.body.ok, true);
      jobId = res.body.job.id;
      strictEqual(res.body.job.state, "scheduled");
      strictEqual(res.body.job.schedule.kind, "cron");
      strictEqual(res.body.job.deny_approvals, true);
      ok(/T0[78]:00:00.000Z$/.test(res.body.job.next_run_at), res.body.job.next_run_at);
      const list = await h.call("GET", "/api/crons");
      deepStrictEqual(list.body.jobs.map((j: { id: string }) => j.id), [jobId]);
    });

    await t.step("run now: the agent's dangerous command is denied unasked", async () => {
      await Deno.mkdir(join(h.workspace, "build"));
      h.fake.enqueue(
        { toolCalls: [{ name: "terminal", args: { command: "rm -rf build" } }] },
        { text: "I could not delete build: approvals are denied while unattended." },
      );
      const res = await h.call("POST", "/api/crons/run", { job_id: jobId });
      strictEqual(res.status, 200);
      const run = res.body.run;
      ok(run.session_id && run.stream_id, JSON.stringify(run));
      const events = await h.stream(run.stream_id);
      const types = events.events.map((e) => e.event);
      ok(!types.includes("approval"), `no approval card: ${types.join(",")}`);
      ok(types.includes("done"), types.join(","));
      ok(existsSync(join(h.workspace, "build")), "the dangerous command did not run");
      // The tool result the model saw says why.
      const second = h.fake.chatRequests[1].body;
      ok(JSON.stringify(second.messages).includes("runs unattended"), "the agent is told why");
      let history = await h.call("GET", `/api/crons/history?job_id=${jobId}`);
      for (let i = 0; i < 50 && history.body.runs[0].status === "running"; i++) {
        await new Promise((r) => setTimeout(r, 20));
        history = await h.call("GET", `/api/crons/history?job_id=${jobId}`);
      }
      const [row] = history.body.runs;
      strictEqual(row.status, "completed");
      strictEqual(row.trigger, "manual");
      ok(row.output_tokens > 0, JSON.stringify(row));
      ok(String(row.output_head).startsWith("I could not delete build"), row.output_head);
      strictEqual(history.body.total, 1);
      const session = await h.call("GET", `/api/session?session_id=${run.session_id}`);
      ok(String(session.body.session.title).startsWith("Nightly tidy"), session.body.session.title);
      const out = await h.call("GET", `/api/crons/output?job_id=${jobId}`);
      strictEqual(out.body.outputs.length, 1);
      const recent = await h.call("GET", "/api/crons/recent?since=0");
      strictEqual(recent.body.completions[0].run_id, row.run_id);
      const status = await h.call("GET", `/api/crons/status?job_id=${jobId}`);
      deepStrictEqual(status.body, { job_id: jobId, running: false, elapsed: 0 });
    });

    await t.step("pause, resume, update and delete", async () => {
      const paused = await h.call("POST", "/api/crons/pause", { job_id: jobId });
      strictEqual(paused.body.job.state, "paused");
      strictEqual(paused.body.job.next_run_at, null);
      const resumed = await h.call("POST", "/api/crons/resume", { job_id: jobId });
      strictEqual(resumed.body.job.state, "scheduled");
      const edited = await h.call("POST", "/api/crons/update", {
        job_id: jobId,
        schedule: "every 30 minutes",
        deny_approvals: false,
      });
      strictEqual(edited.status, 200);
      strictEqual(edited.body.job.schedule_display, "every 30 minutes");
      strictEqual(edited.body.job.deny_approvals, false);
      strictEqual((await h.call("POST", "/api/crons/update", { job_id: "nope" })).status, 404);
      strictEqual((await h.call("POST", "/api/crons/delete", { job_id: jobId })).status, 200);
      strictEqual((await h.call("POST", "/api/crons/delete", { job_id: jobId })).status, 404);
      strictEqual((await h.call("GET", `/api/crons/history?job_id=${jobId}`)).status, 404);
      strictEqual((await h.call("GET", "/api/crons/history")).status, 400);
    });
  } finally {
    await h.close();
  }
});
