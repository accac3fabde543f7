// The file-tool Worker: started by file_sandbox.ts with Deno permissions limited to reading
// and writing ONE workspace (no net, run, env, ffi or sys). It answers `{id, op, args}`
// messages with `{id, result}`; every path still goes through resolveInWorkspace first.
/// <reference lib="deno.worker" />
import { listDirectoryOp, patchOp, readFileOp, searchFilesOp, writeFileOp } from "./file_ops.ts";
import type { FileOpRequest, FileOpResponse } from "./file_sandbox.ts";

/** Try what the worker must not be able to do; each entry says how it was refused. */
async function probePermissions(): Promise<Record<string, string>> {
  const attempt = async (fn: () => unknown): Promise<string> => {
    try {
      await fn();
      return "allowed";
    } catch (err) {
      return (err as Error).name;
    }
  };
  return {
    net: await attempt(() => Deno.connect({ hostname: "127.0.0.1", port: 9 })),
    run: await attempt(() => new Deno.Command("true").output()),
    env: await attempt(() => Deno.env.get("PATH")),
    sys: await attempt(() => Deno.hostname()),
    read_outside: await attempt(() => Deno.readTextFile("/etc/hostname")),
    write_outside: await attempt(() => Deno.writeTextFile("/tmp/.hermes-worker-probe", "x")),
  };
}

self.onmessage = async (e: MessageEvent<FileOpRequest>) => {
  const { id, op, root, args } = e.data;
  let response: FileOpResponse;
  try {
    switch (op) {
      case "read":
        response = { id, result: await readFileOp(root, args as never) };
        break;
      case "write":
        response = { id, result: await writeFileOp(root, args as never) };
        break;
      case "patch":
        response = { id, result: await patchOp(root, args as never) };
        break;
      case "list":
        response = { id, result: await listDirectoryOp(root, args as never) };
        break;
      case "search":
        response = { id, result: await searchFilesOp(root, args as never) };
        break;
      case "probe":
        response = { id, result: { output: JSON.stringify(await probePermissions()) } };
        break;
      default:
        response = { id, result: { output: `Unknown file operation "${op}"`, isError: true } };
    }
  } catch (err) {
    const name = (err as Error).name;
    const message = name === "NotCapable" || name === "PermissionDenied"
      ? "Refused by the sandbox: the file tools may only touch the workspace."
      : `File operation failed: ${(err as Error).message}`;
    response = { id, result: { output: message, isError: true } };
  }
  self.postMessage(response);
};
