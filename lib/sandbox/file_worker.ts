// The file-tool Worker: started by file_sandbox.ts with Deno permissions limited to reading
// and writing ONE workspace plus FFI to libc alone (no net, run, env or sys). It answers
// `{id, op, args}` messages with `{id, result}`; every file is opened race-free beneath the
// workspace's directory fd (safe_fs.ts) and protected paths are refused (file_ops.ts).
/// <reference lib="deno.worker" />
import { listDirectoryOp, patchOp, readFileOp, searchFilesOp, writeFileOp } from "./file_ops.ts";
import type { FileOpRequest, FileOpResponse } from "./file_sandbox.ts";
import { initSafeFs } from "./safe_fs.ts";

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
  const { id, op, root, args, libc } = e.data;
  const guard = { protected: e.data.protected, fileIds: new Set(e.data.protectedFileIds) };
  let response: FileOpResponse;
  try {
    if (op !== "probe") initSafeFs(libc);
    switch (op) {
      case "read":
        response = { id, result: readFileOp(root, args as never, guard) };
        break;
      case "write":
        response = { id, result: writeFileOp(root, args as never, guard) };
        break;
      case "patch":
        response = { id, result: patchOp(root, args as never, guard) };
        break;
      case "list":
        response = { id, result: listDirectoryOp(root, args as never, guard) };
        break;
      case "search":
        response = { id, result: searchFilesOp(root, args as never, guard) };
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
