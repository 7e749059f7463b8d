/**
 * Async `b`/`e` spans of a trace-event file (and the legacy `S`/`F`), paired as they stream by on
 * category + id (+ scope, id2) and nested per id as the format specifies: Node writes `PROMISE`
 * at init and `PROMISE_CALLBACK` around each callback under the same id, so callbacks nest under
 * the resource. Only the open ones are kept; finished ones only add to a small path trie, which
 * becomes call-tree weights (self duration in microseconds) at the end. Synchronous spans are in
 * trace-spans.ts.
 */
import type { CallTreeBuilder } from '../../../model/builders';
import type { SpanFrames } from './trace-spans';

interface OpenAsync {
  name: string;
  /** its path in the trie: the names of the open spans of its id, outermost first */
  path: number;
  ts: number;
  stat: number;
  /** time of the spans nested in this one that have ended */
  childTime: number;
}

/** Path trie key: parent path * SPEC_SPACE + spec (exact while paths stay below 2^27). */
const SPEC_SPACE = 2 ** 26;

export class AsyncSpans {
  /** open spans by group (process, category, scope) and then id: two short lookups, no key built per event */
  private readonly open = new Map<string, Map<string, OpenAsync[]>>();
  // Path trie: path 0 is the `async` root; a path's parent always has a smaller index.
  private readonly pathIndex = new Map<number, number>();
  private readonly pathParent: number[] = [-1];
  private readonly pathSpec: number[] = [-1];
  private readonly pathSelf: number[] = [0];
  /** self time of outermost spans (a resource's lifetime), kept apart: see `materialize` */
  private readonly pathLifetime: number[] = [0];
  private readonly pathEnded: number[] = [0];
  /** a span ended inside another of the same id (Node's `*_CALLBACK` inside its resource) */
  private nested = false;

  /** ends met with no open span of that id */
  unmatchedEnds = 0;
  /** spans closed because an enclosing span of the same id ended first */
  closedByParent = 0;
  /** spans that ended before they began (clamped to zero) */
  negative = 0;

  constructor(
    private readonly frames: SpanFrames,
    private readonly addDuration: (stat: number, start: number, duration: number) => void,
  ) {}

  get hasSpans(): boolean {
    for (let p = 1; p < this.pathEnded.length; p++) if (this.pathEnded[p]! > 0) return true;
    return false;
  }

  begin(group: string, id: string, name: string, ts: number, stat: number): void {
    let ids = this.open.get(group);
    if (!ids) this.open.set(group, (ids = new Map()));
    let stack = ids.get(id);
    if (!stack) ids.set(id, (stack = []));
    const parent = stack.length > 0 ? stack[stack.length - 1]!.path : 0;
    stack.push({ name, path: this.pathChild(parent, this.frames.spec(name, undefined)), ts, stat, childTime: 0 });
  }

  end(group: string, id: string, name: string, ts: number): void {
    const ids = this.open.get(group);
    const stack = ids?.get(id);
    if (!ids || !stack) {
      this.unmatchedEnds++;
      return;
    }
    // An end names the span it ends; one without a name ends the innermost.
    let at = stack.length - 1;
    if (name !== '') while (at >= 0 && stack[at]!.name !== name) at--;
    if (at < 0) {
      this.unmatchedEnds++;
      return;
    }
    while (stack.length - 1 > at) {
      this.close(stack, ts);
      this.closedByParent++;
    }
    this.close(stack, ts);
    if (stack.length === 0) ids.delete(id);
  }

  private close(stack: OpenAsync[], ts: number): void {
    const span = stack.pop()!;
    let dur = ts - span.ts;
    if (!(dur >= 0)) {
      this.negative++;
      dur = 0;
    }
    const parent = stack[stack.length - 1];
    const self = Math.max(0, dur - span.childTime);
    if (parent) {
      this.pathSelf[span.path]! += self;
      parent.childTime += dur;
      this.nested = true;
    } else this.pathLifetime[span.path]! += self;
    this.pathEnded[span.path]!++;
    this.addDuration(span.stat, span.ts, dur);
  }

  private pathChild(parent: number, spec: number): number {
    const k = parent * SPEC_SPACE + spec;
    let p = this.pathIndex.get(k);
    if (p === undefined) {
      p = this.pathParent.length;
      this.pathIndex.set(k, p);
      this.pathParent.push(parent);
      this.pathSpec.push(spec);
      this.pathSelf.push(0);
      this.pathLifetime.push(0);
      this.pathEnded.push(0);
    }
    return p;
  }

  /** Names and counts of the spans never ended, most frequent first. */
  unfinished(): { total: number; byName: [string, number][] } {
    const counts = new Map<string, number>();
    let total = 0;
    for (const ids of this.open.values()) {
      for (const stack of ids.values()) {
        for (const s of stack) {
          counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
          total++;
        }
      }
    }
    return { total, byName: [...counts].sort((a, b) => b[1] - a[1]) };
  }

  /**
   * Adds the finished spans under `root` (the `async` node). Paths of spans that never ended
   * (and hold no finished ones) are left out.
   *
   * Weights: where callbacks nest inside their resource's span (Node writes `PROMISE` from init
   * to destroy and `PROMISE_CALLBACK` around each run of its callback), a resource's own width is
   * only the time its callbacks ran: lifetimes — 1,500 s of mostly idle promises in a 3 s run —
   * would dwarf everything the threads did and are not time spent. Lifetimes stay in the event
   * statistics (duration). Traces without such nesting keep each span's duration.
   */
  materialize(tree: CallTreeBuilder, root: number, frame: (spec: number) => number): void {
    const n = this.pathParent.length;
    const used = new Uint8Array(n);
    for (let p = n - 1; p > 0; p--) if (used[p] || this.pathEnded[p]! > 0) used[this.pathParent[p]!] = used[p] = 1;
    const node = new Int32Array(n);
    node[0] = root;
    for (let p = 1; p < n; p++) {
      if (!used[p]) continue;
      node[p] = tree.child(node[this.pathParent[p]!]!, frame(this.pathSpec[p]!));
      tree.addSelf(node[p]!, this.pathSelf[p]! + (this.nested ? 0 : this.pathLifetime[p]!));
    }
  }
}
