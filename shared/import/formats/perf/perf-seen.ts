/**
 * What the `perf script` reader (perf-script.ts) remembers to read a long capture fast: frame
 * lines met before and the frames they push, runs of frame lines (call chains) the line scanner
 * numbered, the stack it walked down the call tree last, and what a sample takes from its
 * header's comm and ids. What a file imports never depends on them.
 */
import { type CallTreeBuilder, type FrameTableBuilder, detached } from '../../../model/builders';
import { Category, Tier } from '../../../model/types';
import type { Header } from './perf-header';

// What is remembered here is made with `new` (classes), not with literals: V8 keeps watch over
// where literals are made, and once most of them outlive a few collections (as remembered
// entries do) it throws away the optimized code of every function that makes them, to compile it
// again with another way of allocating. (The same holds for TextTable's entries.)

/** A frame line met before: the frames it pushed and whether it was damaged. */
export class SeenLine {
  constructor(
    readonly ids: number | number[],
    readonly damaged: boolean,
  ) {}
}

/**
 * The frames a run of frame lines pushed (leaf first: `length` of them from `start` in the
 * importer's pool of run frames), its damaged lines and the first of them (counted from its
 * first line, 0 the first), and the node the stack made of it alone leads to from the root frame
 * `root` (-1: not known yet). For the runs the line scanner numbers.
 */
export class RunFrames {
  node = -1;
  root = -1;

  constructor(
    readonly start: number,
    readonly length: number,
    readonly damaged: number,
    readonly firstDamaged: number,
  ) {}
}

/**
 * Walks stacks down the call tree from their root frame, starting from the frames a stack shares
 * at its root end with the stack walked before (most of them, from one sample to the next).
 */
export class StackWalker {
  // the stack walked last, root frame first, and the node each of its frames led to
  private readonly ids: number[] = [];
  private readonly nodes: number[] = [];
  private walked = 0;

  constructor(private readonly tree: CallTreeBuilder) {}

  /** The node of root frame `root` and then `stack[height - 1]` down to `stack[0]`. */
  walk(root: number, stack: readonly number[], height: number): number {
    const ids = this.ids;
    const nodes = this.nodes;
    let k = 0;
    if (this.walked > 0 && ids[0] === root) {
      k = 1;
      while (k < this.walked && k <= height && ids[k] === stack[height - k]) k++;
    }
    let node = k > 0 ? nodes[k - 1]! : this.tree.child(this.tree.root, root);
    if (k === 0) {
      ids[0] = root;
      nodes[0] = node;
      k = 1;
    }
    // (within the arrays or pushed: a write past their end makes V8 drop optimized code)
    for (; k <= height; k++) {
      const frame = stack[height - k]!;
      node = this.tree.child(node, frame);
      if (k < ids.length) {
        ids[k] = frame;
        nodes[k] = node;
      } else {
        ids.push(frame);
        nodes.push(node);
      }
    }
    this.walked = height + 1;
    return node;
  }
}

/** What a sample takes from its header's comm and ids, worked out once per header shape. */
export interface Thread {
  root: number;
  name: string;
  java: boolean;
  /** `pid:tid`, with ids */
  thread: string | undefined;
  /** the header's period (0: none) */
  period: number;
  /** the thread's index among the threads met (`SampleThreads.keys`), recorded with its samples */
  index: number;
}

/**
 * The root frame of each comm (or, with `byThread`, of each thread, named `comm-pid/tid` as
 * `stackcollapse-perf.pl --tid` names it), interned once; and the threads met, in order.
 */
export class SampleThreads {
  private readonly roots = new Map<string, number>();
  private readonly index = new Map<string, number>();
  /** `pid:tid` of each thread met ('' for headers without ids), by index */
  readonly keys: string[] = [];
  /** each thread's comm, by index */
  readonly names: string[] = [];

  constructor(
    private readonly frames: FrameTableBuilder,
    private readonly byThread = false,
  ) {}

  of(h: Header): Thread {
    // The reference's root is the comm with blanks made `_` (`V8 WorkerThread` → `V8_WorkerThread`).
    // (`--tid` writes `?` for a pid the header does not give: `perf 1234 [000] …` has the tid alone)
    const label = this.byThread ? `${h.comm.replaceAll(' ', '_')}-${h.pid ?? '?'}/${h.tid}` : h.comm.replaceAll(' ', '_');
    const name = h.comm.trimEnd();
    let root = this.roots.get(label);
    if (root === undefined) {
      // swapper is the kernel's idle task: its samples are idle CPU time.
      const category = name === 'swapper' ? Category.Idle : Category.Other;
      root = this.frames.intern({ name: this.byThread ? label : name, tier: Tier.Unknown, category, label });
      this.roots.set(detached(label), root);
    }
    const period = h.period === undefined ? 0 : Number(h.period);
    const thread = h.pid === undefined ? undefined : `${h.pid}:${h.tid}`;
    const key = `${h.pid ?? ''}:${h.tid}`;
    let index = this.index.get(key);
    if (index === undefined) {
      index = this.keys.length;
      this.index.set(detached(key), index);
      this.keys.push(detached(key));
      this.names.push(detached(name));
    }
    // (as the reference: with --tid the root is no longer `java`, and Java names are not tidied)
    return { root, name, java: label === 'java', thread, period, index };
  }
}
