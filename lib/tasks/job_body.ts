// The bodies of POST /api/crons/create and /update, validated with the original's field names.
import { z } from "zod";

export const JobBody = z.object({
  name: z.string().max(200).optional(),
  prompt: z.string().max(100_000).optional(),
  schedule: z.string().max(200).optional(),
  timezone: z.string().max(64).optional(),
  workspace: z.string().max(4096).nullable().optional(),
  model: z.string().max(256).nullable().optional(),
  profile: z.string().max(128).nullable().optional(),
  deliver: z.string().max(32).optional(),
  deny_approvals: z.boolean().optional(),
  enabled: z.boolean().optional(),
  // Skill names the job's runs load (checked in jobs.ts jobSkills()); [] or null clears them.
  skills: z.array(z.string().max(128)).max(50).nullable().optional(),
});

export const JobIdBody = z.object({ job_id: z.string().min(1).max(64) });
