import { describe, expect, it } from 'vitest';
import { folded } from '../../test/support/folded';
import { withEntryMatched } from '../diff/entry-script';
import { idleNodes } from './idle';

/** The idle nodes worked out from scratch, as `idleNodes` is documented: a stack through `swapper` and an idle-loop function, or a V8 `(idle)` leaf. */
function reference(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .map((l) => l.slice(0, l.lastIndexOf(' ')))
    .filter((stack) => {
      const frames = stack.split(';');
      return (
        frames[frames.length - 1] === '(idle)' ||
        (frames.some((f) => f.includes('swapper')) && frames.some((f) => /cpuidle|cpu_idle|native_safe_halt/.test(f)))
      );
    });
}

describe('idleNodes', () => {
  const text = [
    'swapper/0;secondary_startup_64;cpu_startup_entry;do_idle;cpuidle_enter 40',
    'swapper/0;irq_exit;do_softirq 3',
    'node;(root);(idle) 7',
    'node;(root);main;work 50',
    '',
  ].join('\n');

  it("marks the idle task's and V8's idle stacks, and only them", async () => {
    const p = await folded(text);
    const idle = idleNodes(p);
    const marked: string[] = [];
    for (let i = 1; i < p.tree.length; i++) {
      if (!idle[i]) continue;
      const path: string[] = [];
      for (let v = i; v > 0; v = p.tree.parent[v]!) path.unshift(p.frames.name[p.tree.frame[v]!]!);
      marked.push(path.join(';'));
    }
    expect(marked.sort()).toEqual(reference(text).sort());
  });

  it('is worked out once per tree and frame names, not again for each caller', async () => {
    const p = await folded(text);
    const idle = idleNodes(p);
    expect(idleNodes(p)).toBe(idle);
    // a run compared with its entry script matched: a new profile over the same tree and names
    const matched = withEntryMatched(p, { baseline: 'a.js', run: 'b.js' });
    expect(matched).not.toBe(p);
    expect(idleNodes(matched)).toBe(idle);
    // other names over the same tree are classified anew
    const renamed = { ...p, frames: { ...p.frames, name: p.frames.name.map((n) => (n === '(idle)' ? 'poll' : n)) } };
    const other = idleNodes(renamed);
    expect(other).not.toBe(idle);
    expect(other.reduce((a, v) => a + v, 0)).toBe(idle.reduce((a, v) => a + v, 0) - 1);
  });
});
