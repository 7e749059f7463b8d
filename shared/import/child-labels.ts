/**
 * The children of call-tree nodes, found by their label read in place in a line of text. A text
 * importer that walks a stack root → leaf knows the node it is at; the frame it reads next is
 * nearly always one of that node's few children, and usually the one it took last time. Comparing
 * the label with those few costs far less than hashing it to a frame and then (node, frame) to a
 * child, and finds where the frame ends on the way.
 */

/** Children looked at before the caller falls back to hashing: most nodes have fewer. */
const SCAN = 8;

export class ChildLabels {
  /** by node: its most recently used child, 0 when none (the root is nobody's child) */
  private readonly first: number[] = [0];
  /** by node: the sibling used before it, 0 at the end */
  private readonly next: number[] = [0];
  /** by node: its label */
  private readonly labels: string[] = [''];

  /** where the label `find` matched ends in the text */
  end = 0;

  /**
   * The child of `node` whose label is written in `text` at `from` and ends there at `limit` or at
   * a `sep` character, when it is among the `SCAN` children used most recently (it then moves to
   * the front, and `end` is set); otherwise -1, and the caller hashes. Labels never hold `sep`,
   * so at most one can match.
   */
  find(node: number, text: string, from: number, limit: number, sep: number): number {
    const first = this.first;
    const next = this.next;
    let before = 0;
    let c = first[node]!;
    for (let i = 0; c !== 0 && i < SCAN; i++) {
      const l = this.labels[c]!;
      const to = from + l.length;
      if (to === limit || (to < limit && text.charCodeAt(to) === sep)) {
        // the last character first: a slice is made only for a likely match
        if (to === from || (l.charCodeAt(l.length - 1) === text.charCodeAt(to - 1) && l === text.slice(from, to))) {
          if (before !== 0) {
            next[before] = next[c]!;
            next[c] = first[node]!;
            first[node] = c;
          }
          this.end = to;
          return c;
        }
      }
      before = c;
      c = next[c]!;
    }
    return -1;
  }

  /**
   * Records `child`, a node just made under `node`, with its label (kept: copy it from the line).
   * Nodes are made one after the other from the root (0) on, and all are recorded.
   */
  add(node: number, child: number, label: string): void {
    if (child !== this.labels.length) throw new RangeError(`node ${child} recorded out of order`);
    this.labels.push(label);
    this.next.push(this.first[node]!);
    this.first.push(0);
    this.first[node] = child;
  }
}
