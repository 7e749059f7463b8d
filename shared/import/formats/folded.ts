/**
 * Folded stacks: one line per distinct stack, frames root → leaf separated by `;`, then a space
 * and a count — `main;handle;parse 12`. The lingua franca of Brendan Gregg's FlameGraph
 * (`stackcollapse-*.pl`, reference: https://github.com/brendangregg/FlameGraph) and of bcc
 * `offcputime -f`, bpftrace and many profilers. Frames are kept verbatim; annotations such as
 * `_[k]` (kernel) and `_[j]` (JIT) only guide the category. Lines that do not end in a number
 * are skipped with a warning, as FlameGraph's own `flamegraph.pl` does.
 */
import { CallTreeBuilder, type FrameInput, FrameTableBuilder, finishProfile } from '../../model/builders';
import { Category, Tier } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { forEachLine } from '../lines';
import { HEAD_BYTES } from '../source';

// As flamegraph.pl reads it: the count is the number after the last white-space character, so a
// frame may itself end in spaces (`…;write0;  3` has a last frame " " and the count 3).
const LINE = /^(.*\S.*|.*;.*)\s(\d+(?:\.\d*)?)$/;

function frameCategory(label: string): Category | undefined {
  if (label.endsWith('_[k]')) return Category.Kernel;
  return undefined;
}

export const foldedImporter: Importer = {
  id: 'folded',
  label: 'folded stacks (stackcollapse, bcc, bpftrace: "a;b;c 12")',
  extensions: ['.folded', '.collapsed', '.txt', '.stacks'],
  sniff(head) {
    const lines = head.split('\n');
    // A cut-off last line says nothing, unless it is all there is: one very deep stack.
    if (lines.length > 1 && !head.endsWith('\n')) lines.pop();
    else if (lines.length === 1 && head.length >= HEAD_BYTES / 2) return /^[^{[<\s][^\t]*;[^\t]*;/.test(head);
    let good = 0;
    let bad = 0;
    for (const raw of lines.slice(0, 200)) {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#') || line.startsWith('//')) continue;
      if (LINE.test(line)) good++;
      else bad++;
    }
    return good > 0 && good >= bad * 2;
  },
  async parse({ file, source }) {
    const frames = new FrameTableBuilder();
    const tree = new CallTreeBuilder();
    const warnings: string[] = [];
    let skipped = 0;
    let firstSkipped = 0;
    const ids: number[] = [];
    await forEachLine(source.chunks(), file, (line, lineNo) => {
      if (line.trim() === '') return;
      const m = LINE.exec(line);
      if (!m) {
        if (skipped++ === 0) firstSkipped = lineNo;
        return;
      }
      const weight = Number(m[2]);
      ids.length = 0;
      for (const label of m[1]!.split(';')) {
        // Labels stay as written, empty ones included ("a;;b" is what some collapsers emit).
        const frame: FrameInput = { name: label === '' ? '(empty)' : label, tier: Tier.Unknown, label };
        const cat = frameCategory(label);
        if (cat !== undefined) frame.category = cat;
        ids.push(frames.intern(frame));
      }
      if (ids.length > 0) tree.addStack(ids, weight);
    });
    if (skipped > 0) warnings.push(`skipped ${skipped} line(s) that are not "stack count", first at line ${firstSkipped}`);
    if (tree.nodeCount === 1) throw new ImportError({ file, message: 'no "frame;frame count" lines found' });
    return finishProfile({
      name: file,
      format: 'folded',
      kind: 'aggregated',
      unit: 'samples',
      frames,
      tree,
      meta: { producer: 'folded stacks', warnings },
    });
  },
};
