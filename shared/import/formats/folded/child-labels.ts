/**
 * The children of call-tree nodes, found by their label read in place in a line of text. A text
 * importer that walks a stack root → leaf knows the node it is at; the frame it reads next is
 * nearly always one of that node's few children, and often the one made after the one it took
 * last time. Comparing the label with those few costs far less than hashing it to a frame and then
 * (node, frame) to a child, and finds where the frame ends on the way.
 */

/** Children looked at before the caller falls back to hashing: most nodes have fewer. */
const SCAN = 8;

export class ChildLabels {
  /** by node: its first and last child, in the order they were made (0: none; the root is nobody's child) */
  private readonly first: number[] = [0];
  private readonly last: number[] = [0];
  /** by node: the child made after it under the same parent, 0 at the end */
  private readonly next: number[] = [0];
  /** by node: the child found or made last */
  private readonly used: number[] = [0];
  /** by node: its label */
  private readonly labels: string[] = [''];

  /** How many nodes are recorded (nodes 0 to `size - 1`). */
  get size(): number {
    return this.labels.length;
  }

  /** where the label `find` matched ends in the text (-1 when it found none) */
  end = -1;

  /**
   * The child of `node` whose label is written in `text` at `from` and ends there at `limit` or at
   * a `sep` character, looked for among `SCAN` of its children from the one made after the child
   * used last (sorted input, read again, wants exactly that one), and sets `end`; otherwise -1, and
   * the caller hashes. Labels never hold `sep`, so at most one can match. Found or not, the same
   * steps follow the search: V8 compiles this while a file's first stacks are read, none of them
   * met before, and code that has not run by then would be thrown away and compiled again.
   */
  find(node: number, text: string, from: number, limit: number, sep: number): number {
    const next = this.next;
    const head = this.first[node]!;
    const used = this.used[node]!;
    let c = used === 0 ? 0 : next[used]!;
    if (c === 0) c = head;
    const start = c;
    let found = -1;
    let end = -1;
    for (let i = 0; c !== 0 && i < SCAN; i++) {
      const l = this.labels[c]!;
      const to = from + l.length;
      // the end and the last character first: a slice is made only for a likely match
      if (
        (to === limit || (to < limit && text.charCodeAt(to) === sep)) &&
        (to === from || (l.charCodeAt(l.length - 1) === text.charCodeAt(to - 1) && l === text.slice(from, to)))
      ) {
        found = c;
        end = to;
        break;
      }
      // on to the next child, from the first after the last, until back where it began
      c = next[c]! === 0 ? head : next[c]!;
      if (c === start) break;
    }
    this.used[node] = found >= 0 ? found : used;
    this.end = end;
    return found;
  }

  /**
   * Records `child`, a node just made under `node`, with its label (kept: copy it from the line).
   * Nodes are made one after the other from the root (0) on, and all are recorded.
   */
  add(node: number, child: number, label: string): void {
    if (child !== this.labels.length) throw new RangeError(`node ${child} recorded out of order`);
    this.labels.push(label);
    this.first.push(0);
    this.last.push(0);
    this.next.push(0);
    this.used.push(0);
    if (this.first[node] === 0) this.first[node] = child;
    else this.next[this.last[node]!] = child;
    this.last[node] = child;
    this.used[node] = child;
  }
}
