/**
 * Idle samples: the time a process waited rather than worked, which heatmaps, time ranges, shares
 * and the diff leave out.
 */
import type { Profile } from '../model/types';

/**
 * Kernel functions the idle task runs in, as FlameScope recognises them for perf: the generic
 * idle loop (`arch_cpu_idle`, `cpuidle_enter_state` and the `cpuidle` driver family), the halt
 * instruction of paravirtualised guests (`native_safe_halt`), Xen's idle hypercalls and its
 * secondary-CPU entry. Matched as substrings, so `arch_cpu_idle`, `cpuidle_enter` and
 * `pv_native_safe_halt` all count.
 */
const KERNEL_IDLE = /cpuidle|cpu_idle|cpu_bringup_and_idle|native_safe_halt|xen_hypercall_sched_op|xen_hypercall_vcpu_op/;

/**
 * Per call-tree node, 1 when a sample whose stack ends at that node is idle CPU time:
 * - V8 profiles (`.cpuprofile`, Chrome trace samples, 0x): the leaf is V8's `(idle)` node, the
 *   time the event loop waited for work;
 * - perf: the stack is the kernel's idle task — a `swapper` process frame (perf names the idle
 *   task `swapper`, or `swapper/N` per CPU) together with one of the idle-loop functions above.
 *   A swapper sample without them is an interrupt or softirq served on an idle CPU: real work.
 * A sample that merely passes through `epoll_wait` is not idle here: it was on the CPU when taken.
 *
 * Worked out once per call tree and frame names (a run compared with entry scripts matched is a
 * new profile over the same arrays): the array is shared, and nobody writes to it.
 */
export function idleNodes(profile: Profile): Uint8Array {
  const { tree, frames } = profile;
  const known = made.get(tree);
  if (known?.names === frames.name) return known.idle;
  const idle = classify(profile);
  made.set(tree, { names: frames.name, idle });
  return idle;
}

const made = new WeakMap<Profile['tree'], { names: readonly string[]; idle: Uint8Array }>();

function classify(profile: Profile): Uint8Array {
  const { tree, frames } = profile;
  // Classify each frame once; stacks share frames heavily.
  const SWAPPER = 1;
  const IDLE_FN = 2;
  const V8_IDLE = 4;
  const frameFlags = new Uint8Array(frames.length);
  for (let f = 0; f < frames.length; f++) {
    const name = frames.name[f]!;
    let flags = 0;
    if (name.includes('swapper')) flags |= SWAPPER;
    if (KERNEL_IDLE.test(name)) flags |= IDLE_FN;
    if (name === '(idle)') flags |= V8_IDLE;
    frameFlags[f] = flags;
  }
  // Pre-order: a parent's path flags are known before its children's.
  const path = new Uint8Array(tree.length);
  const idle = new Uint8Array(tree.length);
  for (let i = 1; i < tree.length; i++) {
    const own = frameFlags[tree.frame[i]!] ?? 0;
    const p = tree.parent[i]!;
    const flags = (path[p]! & (SWAPPER | IDLE_FN)) | own;
    path[i] = flags;
    if (((flags & SWAPPER) !== 0 && (flags & IDLE_FN) !== 0) || (own & V8_IDLE) !== 0) idle[i] = 1;
  }
  return idle;
}
