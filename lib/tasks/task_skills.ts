// The skills a scheduled task loads, as the original loads them for its cron runs: each listed
// skill's instructions go into the run's system prompt, marked as asked for, and a listed skill
// that cannot be loaded is named so the answer can say it was skipped. Invariant: only the turn
// answering the task's own prompt gets them, not a later message someone types in that session.
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { AppConfig } from "../settings/config.ts";
import { readSkill, splitFrontMatter } from "../agent/skills.ts";
import { configForProfile, sessionProfile } from "../agent/profiles.ts";
import { skillsOf } from "./jobs.ts";

/** The system prompt section of the task skills for `sessionId`'s next turn, or null. */
export async function taskSkillsSection(
  app: { db: AsyncQueries; config: AppConfig },
  sessionId: string,
): Promise<string | null> {
  const job = await app.db.get<{ skills: string; prompt: string; profile: string | null }>(
    sql`SELECT j.skills AS skills, j.prompt AS prompt, j.profile AS profile
        FROM sessions s JOIN cron_jobs j ON j.id = s.cron_job_id
        WHERE s.session_id = ${sessionId}`,
  );
  const names = job ? skillsOf(job) : [];
  if (!job || names.length === 0) return null;
  const latest = await app.db.get<{ content: string }>(
    sql`SELECT content FROM messages WHERE session_id = ${sessionId} AND role = 'user'
        ORDER BY idx DESC LIMIT 1`,
  );
  if (latest?.content !== job.prompt) return null;
  // The job's own profile, as the original runs a job in it; else the session's.
  const config = configForProfile(
    app.config,
    job.profile || await sessionProfile(app.db, sessionId),
  );
  const parts: string[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const skill = await readSkill(config, name).catch(() => null);
    if (!skill || !skill.enabled) {
      skipped.push(name);
      continue;
    }
    parts.push(
      `## Skill "${name}" (this scheduled task asks you to follow it)\n` +
        splitFrontMatter(skill.content).body.trim(),
    );
  }
  if (skipped.length) {
    parts.unshift(
      `## Skills not found\nThis scheduled task lists skills that could not be loaded and ` +
        `were skipped: ${skipped.join(", ")}. Begin your answer with a short notice saying so.`,
    );
  }
  return parts.join("\n\n");
}
