// The sandbox's seccomp filter, checked instruction by instruction for both architectures it
// is built for (aarch64 cannot run here, so the program is interpreted like the kernel does),
// and its syscall numbers against the kernel headers when they are installed.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  AUDIT_ARCH,
  DENIED_SYSCALLS,
  encodeProgram,
  evaluateProgram,
  SECCOMP_RET,
  seccompFilter,
  seccompProgram,
  SYSCALL_NUMBERS,
} from "../lib/sandbox/seccomp.ts";
import { skipWhen } from "./fixtures/skip.ts";

const EPERM = SECCOMP_RET.ERRNO | 1;
const ENOSYS = SECCOMP_RET.ERRNO | 38;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNET = 0x40000000;
const SIGCHLD = 17;
const THREAD_FLAGS = 0x003d0f00; // what glibc's pthread_create passes to clone

for (const arch of ["x86_64", "aarch64"] as const) {
  Deno.test(`seccompProgram(${arch}) refuses each listed syscall and allows the rest`, () => {
    const prog = seccompProgram(arch);
    const nr = SYSCALL_NUMBERS[arch];
    const run = (n: number, args: number[] = []) =>
      evaluateProgram(prog, { arch: AUDIT_ARCH[arch], nr: n, args });
    for (const name of DENIED_SYSCALLS) strictEqual(run(nr[name]) >>> 0, EPERM >>> 0, name);
    // clone: a namespace flag is refused; fork and threads are not.
    strictEqual(run(nr.clone, [CLONE_NEWUSER | SIGCHLD]) >>> 0, EPERM >>> 0);
    strictEqual(run(nr.clone, [CLONE_NEWNET]) >>> 0, EPERM >>> 0);
    strictEqual(run(nr.clone, [SIGCHLD]), SECCOMP_RET.ALLOW);
    strictEqual(run(nr.clone, [THREAD_FLAGS]), SECCOMP_RET.ALLOW);
    strictEqual(run(nr.clone3) >>> 0, ENOSYS >>> 0, "clone3 falls back to clone");
    // Ordinary syscalls: read, write, openat, execve.
    const ordinary = arch === "x86_64" ? [0, 1, 257, 59] : [63, 64, 56, 221];
    for (const n of ordinary) strictEqual(run(n), SECCOMP_RET.ALLOW, `syscall ${n}`);
    // Another architecture's calling convention is killed outright.
    const other = arch === "x86_64" ? AUDIT_ARCH.aarch64 : AUDIT_ARCH.x86_64;
    strictEqual(evaluateProgram(prog, { arch: other, nr: 0 }) >>> 0, SECCOMP_RET.KILL_PROCESS);
    strictEqual(evaluateProgram(prog, { arch: 0x40000003, nr: 0 }) >>> 0, SECCOMP_RET.KILL_PROCESS);
  });
}

Deno.test("seccompProgram(x86_64) kills the x32 ABI", () => {
  const prog = seccompProgram("x86_64");
  strictEqual(
    evaluateProgram(prog, { arch: AUDIT_ARCH.x86_64, nr: 0x40000000 | 165 }) >>> 0,
    SECCOMP_RET.KILL_PROCESS,
  );
});

Deno.test("seccompFilter() encodes struct sock_filter: 8 little-endian bytes per instruction", () => {
  const prog = seccompProgram("aarch64");
  const bytes = encodeProgram(prog);
  strictEqual(bytes.length, prog.length * 8);
  ok(prog.length < 4096, "within the kernel's BPF_MAXINSNS");
  const view = new DataView(bytes.buffer);
  deepStrictEqual([view.getUint16(0, true), view.getUint32(4, true)], [0x20, 4]); // ld [arch]
  deepStrictEqual(view.getUint32(12, true), AUDIT_ARCH.aarch64);
  const host = seccompFilter();
  if (Deno.build.arch === "x86_64" || Deno.build.arch === "aarch64") ok(host && host.length > 0);
});

/** `#define __NR_<name> <n>` lines of a kernel header, when it is installed. */
async function headerNumbers(path: string): Promise<Map<string, number> | null> {
  const text = await Deno.readTextFile(path).catch(() => null);
  if (!text) return null;
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$/gm)) {
    out.set(m[1], Number(m[2]));
  }
  return out;
}

Deno.test("SYSCALL_NUMBERS match the kernel headers (when installed)", async (t) => {
  const headers = {
    x86_64: "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
    aarch64: "/usr/include/asm-generic/unistd.h",
  } as const;
  for (const arch of ["x86_64", "aarch64"] as const) {
    const defined = await headerNumbers(headers[arch]);
    await t.step({
      name: arch,
      ignore: skipWhen(defined === null && `${headers[arch]} is missing (linux-libc-dev)`, arch),
      fn() {
        for (const [name, n] of Object.entries(SYSCALL_NUMBERS[arch])) {
          strictEqual(defined!.get(name), n, `${arch} ${name}`);
        }
      },
    });
  }
});
