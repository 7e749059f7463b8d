import { describe, expect, it } from 'vitest';
import { diffProfiles } from '../diff/diff';
import { folded } from '../../test/support/folded';
import { busyWeights, runTotals, totalNoun } from './busy';
import { compileQuery, matchFrames, matchShare } from './matcher';

describe('busy CPU', () => {
  it('leaves out V8 (idle) samples and the kernel idle task, and is what shares and the diff are of', async () => {
    // perf names the idle task swapper; its idle loop makes those samples idle CPU
    const p = await folded(
      [
        '(idle) 30',
        'swapper;secondary_startup_64;cpu_idle;default_idle 20',
        'swapper;irq_exit;do_softirq 5',
        'node;main;agent 15',
        'node;main 30',
      ].join('\n'),
      'run.folded',
    );
    const t = runTotals(p);
    expect(t).toEqual({ all: 100, idle: 50, busy: 50 });
    const w = busyWeights(p);
    expect(w.reduce((a, b) => a + b, 0)).toBe(50);
    expect(p.tree.total[0]).toBe(100); // the profile itself is left as it was
    expect(matchShare(p, matchFrames(p, compileQuery('agent')!.match), w).inclusive).toBeCloseTo(15 / 50, 12);
    expect(totalNoun(p)).toBe('busy CPU');

    // the cost against a baseline leaves out the same samples
    const base = await folded('(idle) 60\nnode;main 25', 'base.folded');
    const d = diffProfiles(base, p, { excludeIdle: true });
    expect([d.baseline.total, d.run.total, d.baseline.idle, d.run.idle]).toEqual([25, 50, 60, 50]);
    expect(d.change).toBe(1);
  });
});
