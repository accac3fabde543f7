// Bodies of the profile routes, with the original's field names.
import { z } from "zod";

const opt = z.string().max(4096).nullable().optional();

export const ProfileSettingsBody = z.object({
  model: opt,
  provider: opt,
  personality: opt,
  workspace: opt,
  mcp_servers: z.array(z.string().max(64)).max(100).nullable().optional(),
});

export const ProfileNameBody = z.object({ name: z.string().min(1).max(64) });
