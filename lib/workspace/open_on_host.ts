// Opening a workspace file in a program on the server's own desktop (the original's "reveal in
// file manager" and "open in VS Code"). Invariants: only when the console is bound to loopback
// (the server IS the user's machine); the path has already been through the workspace guard and
// is absolute (so it can never be read as an option); a fixed program, no shell, an explicit
// minimal environment, and the child is never waited on.
import { dirname } from "node:path";
import type { AppConfig } from "../settings/config.ts";
import { isLoopbackHost } from "../settings/config.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { resolveInWorkspace } from "./workspace_paths.ts";

export type HostAction = "reveal" | "open-vscode";

/** The desktop variables a GUI program needs, and nothing else from the server's env. */
const PASSED_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "DBUS_SESSION_BUS_ADDRESS",
];

/** Refuse (403) unless the console runs on the user's own machine. */
export function requireLocalDesktop(config: Pick<AppConfig, "host">): void {
  if (!isLoopbackHost(config.host)) {
    throw new ForbiddenError(
      `Opening files on the server is only available when the console runs on your own ` +
        `machine (bound to 127.0.0.1); this one listens on ${config.host}`,
    );
  }
}

/** The program and arguments for an action on an absolute, guarded path. */
export function hostCommand(
  action: HostAction,
  absPath: string,
  isDir: boolean,
  os: typeof Deno.build.os = Deno.build.os,
): { program: string; args: string[] } {
  if (!absPath.startsWith("/")) throw new ValidationError("Path must be absolute");
  if (action === "open-vscode") return { program: "code", args: ["--", absPath] };
  if (os === "darwin") return { program: "open", args: ["-R", absPath] };
  return { program: "xdg-open", args: [isDir ? absPath : dirname(absPath)] };
}

/** Start the program detached from this request; a missing program is a clear 400. */
export function runOnHost(
  config: Pick<AppConfig, "env">,
  command: { program: string; args: string[] },
): void {
  const env: Record<string, string> = {};
  for (const k of PASSED_ENV) if (config.env[k]) env[k] = config.env[k];
  try {
    const child = new Deno.Command(command.program, {
      args: command.args,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.status.catch(() => {});
    child.unref();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ValidationError(`"${command.program}" is not installed on this machine`);
    }
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable) {
      throw new ForbiddenError(`This server may not run "${command.program}"`);
    }
    throw err;
  }
}

/**
 * The routes' whole job: guard the path against the workspace, 404 a missing file naming its
 * resolved path (as the original), refuse off-loopback, then start the program. Returns the
 * absolute path the program was given.
 */
export async function openInWorkspaceOnHost(
  config: Pick<AppConfig, "host" | "env">,
  workspace: string,
  path: string,
  action: HostAction,
): Promise<string> {
  const abs = await resolveInWorkspace(workspace, path, { mustExist: false });
  const info = await Deno.stat(abs).catch(() => null);
  if (!info) throw new NotFoundError(`File not found: ${abs}`);
  requireLocalDesktop(config);
  runOnHost(config, hostCommand(action, abs, info.isDirectory));
  return abs;
}
