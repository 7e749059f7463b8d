import { describe, expect, it } from 'vitest';
import { Status } from '../../../shared/diff/diff';
import { annotateView } from '../../../shared/diff/annotate-view';
import { stacks } from '../../../test/support/stacks';
import { buildViewTree } from '../../../shared/view/view-tree';
import { comparedProfile, costFor, diffFor, entryMatchFor } from './derived';

const base = stacks('main@/srv/app/server-baseline.js;work@/srv/app/lib.js 3\nmain@/srv/app/server-baseline.js 1', 'baseline');
const run = stacks(
  'main@/srv/app/server-otel.js;work@/srv/app/lib.js 5\nmain@/srv/app/server-otel.js;otel@/srv/app/node_modules/otel/x.js 2',
);
/** The baseline's call path down to `work`, as a click in the baseline's pane focuses it. */
const basePath = ['main\tapp/server-baseline.js', 'work\tapp/lib.js'];

describe('runs compared with the baseline, entry scripts matched', () => {
  it('zoom and hover find the run’s entry script under the baseline’s keys', () => {
    const matched = comparedProfile(run, base, true);
    expect(comparedProfile(run, base, true)).toBe(matched);
    expect(entryMatchFor(run, base)).toEqual({ baseline: 'app/server-baseline.js', run: 'app/server-otel.js' });
    const view = buildViewTree(matched, { focus: basePath });
    expect(view.focusDepth).toBe(2);
    // the key the run's box hovers with is the baseline's
    // (the focused frame's callers fold into one row, which names them)
    const first = view.root.children![0]!;
    expect(first.ancestors ? first.ancestors[0]!.key : first.key).toBe(basePath[0]);
    expect(buildViewTree(comparedProfile(run, base, false), { focus: basePath }).focusDepth).toBe(0);
    expect(comparedProfile(base, base, true)).toBe(base);
  });

  it('colours the entry script as changed, not new, in the diff the panes draw', () => {
    const colour = (on: boolean) => {
      const p = comparedProfile(run, base, on);
      const res = diffFor(base, p, 'absolute', 0.1);
      const view = buildViewTree(p, { focus: [] });
      annotateView(view.root, res.diff!, res.index!, 'total');
      return view.root.children!.map((c) => [c.name, c.status, c.delta]);
    };
    expect(colour(true)).toEqual([['main', Status.Changed, 3]]);
    expect(colour(false)).toEqual([['main', Status.New, 7]]);
  });
});

describe("a pane's cost against the baseline", () => {
  it('is the diff’s own, whether or not the diff was made, and says why units do not compare', () => {
    const a = stacks('main;work 4\nmain;(idle) 6', 'a');
    const b = stacks('main;work 5\nmain;agent 3\nmain;(idle) 2', 'b');
    const before = costFor(a, b, 'absolute');
    expect(before.summary!.change).toBeCloseTo(8 / 4 - 1);
    const d = diffFor(a, b, 'absolute', 0.1).diff!;
    const after = costFor(a, b, 'absolute');
    expect(after.summary).toBe(d);
    expect([before.summary!.change, before.summary!.baseline.idle, before.summary!.warnings]).toEqual([
      d.change,
      d.baseline.idle,
      d.warnings,
    ]);
    const bytes = { ...stacks('main 1', 'c'), unit: 'bytes' as const };
    expect(costFor(a, bytes, 'relative').error).toMatch(/cannot compare/);
  });
});
