// The original's task features the console lacked: GET /api/crons/delivery-options (its shape,
// the local option at least, each value one create accepts) and `skills` on jobs (validated,
// stored, in every job object, and loaded into the job's run as the original loads them).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "../fixtures/engine_harness.ts";

Deno.test("GET /api/crons/delivery-options answers the original's shape with the local option", async () => {
  const h = await startHarness();
  try {
    const res = await h.call("GET", "/api/crons/delivery-options");
    strictEqual(res.status, 200);
    const platforms: Array<{ value: string; label: string }> = res.body.platforms;
    ok(Array.isArray(platforms), JSON.stringify(res.body));
    deepStrictEqual(platforms[0], { value: "local", label: "Local (save output only)" });
    for (const p of platforms) {
      deepStrictEqual(Object.keys(p).sort(), ["label", "value"]);
      const made = await h.call("POST", "/api/crons/create", {
        prompt: "Say hello",
        schedule: "every 999h",
        deliver: p.value,
      });
      strictEqual(made.status, 200, `deliver ${p.value}: ${JSON.stringify(made.body)}`);
      // The job reads back with the value the picker offers.
      strictEqual(made.body.job.deliver, p.value);
    }
  } finally {
    await h.close();
  }
});

Deno.test("crons create/update take a validated skills list and every job object carries it", async () => {
  const h = await startHarness();
  try {
    const made = await h.call("POST", "/api/crons/create", {
      prompt: "Summarize the news",
      schedule: "0 9 * * *",
      skills: ["web-search", " notes ", "web-search"],
    });
    strictEqual(made.status, 200, JSON.stringify(made.body));
    deepStrictEqual(made.body.job.skills, ["web-search", "notes"]);
    const jobId = made.body.job.id;
    const listed = await h.call("GET", "/api/crons");
    deepStrictEqual(listed.body.jobs[0].skills, ["web-search", "notes"]);

    const plain = await h.call("POST", "/api/crons/create", { prompt: "x", schedule: "every 1h" });
    deepStrictEqual(plain.body.job.skills, []);

    const renamed = await h.call("POST", "/api/crons/update", { job_id: jobId, name: "News" });
    deepStrictEqual(renamed.body.job.skills, ["web-search", "notes"], "untouched when not sent");
    const swapped = await h.call("POST", "/api/crons/update", { job_id: jobId, skills: ["maps"] });
    deepStrictEqual(swapped.body.job.skills, ["maps"]);
    const cleared = await h.call("POST", "/api/crons/update", { job_id: jobId, skills: [] });
    deepStrictEqual(cleared.body.job.skills, []);

    for (const skills of [["../etc"], ["Bad Name"], "web-search", [42]]) {
      const bad = await h.call("POST", "/api/crons/create", {
        prompt: "x",
        schedule: "every 1h",
        skills,
      });
      strictEqual(bad.status, 400, `${JSON.stringify(skills)}: ${JSON.stringify(bad.body)}`);
      ok(String(bad.body.error).toLowerCase().includes("skill"), bad.body.error);
      const badEdit = await h.call("POST", "/api/crons/update", { job_id: jobId, skills });
      strictEqual(badEdit.status, 400);
    }
    const after = await h.call("GET", "/api/crons");
    strictEqual(after.body.jobs.length, 2, "no job was made from a bad list");
  } finally {
    await h.close();
  }
});

Deno.test("a task's run loads its skills into the prompt; a later message in its session does not", async () => {
  const h = await startHarness();
  try {
    const dir = join(h.stateDir, "skills", "checklist");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      join(dir, "SKILL.md"),
      "---\nname: checklist\ndescription: End with a checklist\n---\n\n" +
        "Always end your report with the word CHECKLIST-DONE.\n",
    );
    const made = await h.call("POST", "/api/crons/create", {
      prompt: "Report on the build folder",
      schedule: "every 999h",
      skills: ["checklist", "ghost-skill"],
    });
    strictEqual(made.status, 200, JSON.stringify(made.body));

    h.fake.enqueue({ text: "Skipped ghost-skill. All fine. CHECKLIST-DONE" });
    const run = (await h.call("POST", "/api/crons/run", { job_id: made.body.job.id })).body.run;
    await h.stream(run.stream_id);
    const system = (body: { messages: Array<{ role: string; content: unknown }> }) =>
      JSON.stringify(body.messages.filter((m) => m.role === "system"));
    const first = system(h.fake.chatRequests.at(-1)!.body);
    ok(first.includes("Always end your report with the word CHECKLIST-DONE."), first);
    ok(first.includes("ghost-skill"), "the skill that could not be loaded is named");

    // The user talks on in the task's session: that turn is theirs, not the task's.
    h.sessionId = run.session_id;
    h.fake.enqueue({ text: "You're welcome." });
    await h.stream((await h.start("thanks")).stream_id);
    const later = system(h.fake.chatRequests.at(-1)!.body);
    ok(!later.includes("CHECKLIST-DONE"), later);
  } finally {
    await h.close();
  }
});
