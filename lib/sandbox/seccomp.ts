// The syscall filter of the terminal sandbox: a classic-BPF seccomp program, built here for
// x86_64 and aarch64, that bubblewrap installs (`--seccomp FD`) right before the command runs.
// Invariants: a foreign architecture (or x86's x32 ABI) is killed; the listed syscalls (mounts,
// namespaces, tracing, keyrings, kernel modules, eBPF…) fail with EPERM; everything else runs.

/** Architectures a filter can be built for (Deno.build.arch values). */
export type SeccompArch = "x86_64" | "aarch64";

/** Syscalls no sandboxed command needs, each a known way out of (or into) a sandbox. */
export const DENIED_SYSCALLS = [
  // Mount table and namespaces: remount / read-write, unmount the masks, join the host's netns.
  "mount",
  "umount2",
  "pivot_root",
  "chroot",
  "setns",
  "unshare",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "move_mount",
  "open_tree",
  "mount_setattr",
  "open_by_handle_at",
  "name_to_handle_at",
  // Reading or steering other processes.
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  // Kernel attack surface far beyond what a shell needs.
  "keyctl",
  "add_key",
  "request_key",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  // The machine itself.
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "swapon",
  "swapoff",
  "reboot",
  "syslog",
  "acct",
  "quotactl",
  "settimeofday",
  "clock_settime",
] as const;

export type DeniedSyscall = typeof DENIED_SYSCALLS[number];

/** Syscall numbers per architecture (asm/unistd_64.h; aarch64 uses asm-generic/unistd.h). */
export const SYSCALL_NUMBERS: Record<
  SeccompArch,
  Record<DeniedSyscall | "clone" | "clone3", number>
> = {
  x86_64: {
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    chroot: 161,
    setns: 308,
    unshare: 272,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    move_mount: 429,
    open_tree: 428,
    mount_setattr: 442,
    open_by_handle_at: 304,
    name_to_handle_at: 303,
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    kexec_load: 246,
    kexec_file_load: 320,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    syslog: 103,
    acct: 163,
    quotactl: 179,
    settimeofday: 164,
    clock_settime: 227,
    clone: 56,
    clone3: 435,
  },
  aarch64: {
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    chroot: 51,
    setns: 268,
    unshare: 97,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    move_mount: 429,
    open_tree: 428,
    mount_setattr: 442,
    open_by_handle_at: 265,
    name_to_handle_at: 264,
    ptrace: 117,
    process_vm_readv: 270,
    process_vm_writev: 271,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    kexec_load: 104,
    kexec_file_load: 294,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    swapon: 224,
    swapoff: 225,
    reboot: 142,
    syslog: 116,
    acct: 89,
    quotactl: 60,
    settimeofday: 170,
    clock_settime: 112,
    clone: 220,
    clone3: 435,
  },
};

/** AUDIT_ARCH_* values the kernel reports in seccomp_data.arch. */
export const AUDIT_ARCH: Record<SeccompArch, number> = {
  x86_64: 0xc000003e,
  aarch64: 0xc00000b7,
};

/** Namespace flags of clone(2): creating any of them from inside the sandbox is refused. */
export const CLONE_NAMESPACE_FLAGS = 0x10000000 | // CLONE_NEWUSER
  0x00020000 | // CLONE_NEWNS
  0x20000000 | // CLONE_NEWPID
  0x40000000 | // CLONE_NEWNET
  0x04000000 | // CLONE_NEWUTS
  0x08000000 | // CLONE_NEWIPC
  0x02000000; // CLONE_NEWCGROUP

const EPERM = 1;
const ENOSYS = 38;
const X32_SYSCALL_BIT = 0x40000000;

export const SECCOMP_RET = {
  KILL_PROCESS: 0x80000000,
  ERRNO: 0x00050000,
  ALLOW: 0x7fff0000,
} as const;

// Classic BPF opcodes (linux/bpf_common.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

// Offsets in struct seccomp_data: nr (u32), arch (u32), ip (u64), args[6] (u64, little endian).
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LOW = 16;

/** One classic-BPF instruction (struct sock_filter). */
export interface BpfInstruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const ins = (code: number, k: number, jt = 0, jf = 0): BpfInstruction => ({ code, jt, jf, k });

/** The filter for `arch` as instructions (tests interpret them; bwrap gets `encode()`d bytes). */
export function seccompProgram(arch: SeccompArch): BpfInstruction[] {
  const nr = SYSCALL_NUMBERS[arch];
  const errno = (e: number) => ins(RET_K, SECCOMP_RET.ERRNO | e);
  const prog: BpfInstruction[] = [
    ins(LD_W_ABS, OFF_ARCH),
    ins(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ins(RET_K, SECCOMP_RET.KILL_PROCESS),
    ins(LD_W_ABS, OFF_NR),
  ];
  // x32 syscalls share the x86_64 audit arch but set bit 30: another ABI, so killed too.
  if (arch === "x86_64") {
    prog.push(ins(JGE_K, X32_SYSCALL_BIT, 0, 1), ins(RET_K, SECCOMP_RET.KILL_PROCESS));
  }
  for (const name of DENIED_SYSCALLS) prog.push(ins(JEQ_K, nr[name], 0, 1), errno(EPERM));
  // clone3 passes its flags in memory, which seccomp cannot read: ENOSYS makes libc fall back
  // to clone, whose flags (arg 0 on both architectures) are checked below.
  prog.push(ins(JEQ_K, nr.clone3, 0, 1), errno(ENOSYS));
  prog.push(
    ins(JEQ_K, nr.clone, 0, 3),
    ins(LD_W_ABS, OFF_ARG0_LOW),
    ins(JSET_K, CLONE_NAMESPACE_FLAGS, 0, 1),
    errno(EPERM),
  );
  prog.push(ins(RET_K, SECCOMP_RET.ALLOW));
  return prog;
}

/** Encode instructions as the bytes of a `struct sock_filter[]` (little endian). */
export function encodeProgram(prog: BpfInstruction[]): Uint8Array {
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach((p, i) => {
    view.setUint16(i * 8, p.code, true);
    view.setUint8(i * 8 + 2, p.jt);
    view.setUint8(i * 8 + 3, p.jf);
    view.setUint32(i * 8 + 4, p.k, true);
  });
  return out;
}

/** The host's architecture when a filter exists for it, else null (no filter is installed). */
export function hostSeccompArch(): SeccompArch | null {
  const arch = Deno.build.arch as string;
  return arch === "x86_64" || arch === "aarch64" ? arch : null;
}

/** The compiled filter bwrap reads from `--seccomp FD`, or null on other architectures. */
export function seccompFilter(arch: SeccompArch | null = hostSeccompArch()): Uint8Array | null {
  return arch ? encodeProgram(seccompProgram(arch)) : null;
}

/**
 * Run `prog` on one syscall the way the kernel would (for tests: aarch64 cannot be executed
 * here). Returns the seccomp action value.
 */
export function evaluateProgram(
  prog: BpfInstruction[],
  data: { arch: number; nr: number; args?: number[] },
): number {
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const p = prog[pc];
    switch (p.code) {
      case LD_W_ABS:
        if (p.k === OFF_NR) acc = data.nr >>> 0;
        else if (p.k === OFF_ARCH) acc = data.arch >>> 0;
        else if (p.k >= 16 && (p.k - 16) % 8 === 0) acc = (data.args?.[(p.k - 16) / 8] ?? 0) >>> 0;
        else throw new Error(`unsupported load offset ${p.k}`);
        break;
      case JEQ_K:
        pc += acc === p.k >>> 0 ? p.jt : p.jf;
        break;
      case JGE_K:
        pc += acc >= p.k >>> 0 ? p.jt : p.jf;
        break;
      case JSET_K:
        pc += (acc & p.k) !== 0 ? p.jt : p.jf;
        break;
      case RET_K:
        return p.k >>> 0;
      default:
        throw new Error(`unsupported opcode ${p.code}`);
    }
  }
  throw new Error("the program fell off its end");
}
