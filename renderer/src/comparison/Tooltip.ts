/**
 * The hover tooltip of a pane, filled imperatively (it changes on every mouse move, which must
 * not re-render React): the box's total and self with their share of the run's busy CPU, category, file,
 * V8 tier, and the baseline's figures for the same call path.
 */
import { CATEGORY_NAMES, TIER_NAMES } from '../../../shared/model/types';
import type { Profile } from '../../../shared/model/types';
import { resolveFocus } from '../../../shared/view/view-tree';
import { totalNoun } from '../../../shared/search/busy';
import { totalsFor } from '../store/derived';
import { type FlameNode, keyPath } from './flame-chart';
import { formatPercent, formatWeight } from './format';

function row(label: string, value: string): HTMLElement {
  const tr = document.createElement('div');
  tr.className = 'tip-row';
  const a = document.createElement('span');
  a.className = 'tip-label';
  a.textContent = label;
  const b = document.createElement('span');
  b.textContent = value;
  tr.append(a, b);
  return tr;
}

/** Total and self of a call path in another run (summing same-key siblings, as the view does). */
export function pathFigures(p: Profile, path: string[]): { total: number; self: number } | undefined {
  const r = resolveFocus(p, path);
  if (r.depth < path.length) return undefined;
  let total = 0;
  let self = 0;
  for (const v of r.nodes) {
    total += p.tree.total[v]!;
    self += p.tree.self[v]!;
  }
  return { total, self };
}

export function fillTooltip(
  el: HTMLElement,
  d: FlameNode,
  run: Profile,
  /** the run's busy total, idle left out (within its time range when there is one) */
  runTotal: number,
  baseline: Profile | undefined,
  delta?: string,
  /** more rows after the delta (a function's change across repeated runs) */
  more: readonly [string, string][] = [],
): void {
  const n = d.data;
  el.replaceChildren();
  const title = document.createElement('div');
  title.className = 'tip-title';
  title.textContent = n.name;
  el.append(title);
  if (n.ancestors) {
    el.append(row('callers', `${n.ancestors.length} frames on the way to the focused one; click a name to zoom out to it`));
    return;
  }
  if (n.file) el.append(row('file', n.line ? `${n.file}:${n.line}` : n.file));
  if (n.key !== '') el.append(row('category', CATEGORY_NAMES[n.category] ?? 'other'));
  if (TIER_NAMES[n.tier]) el.append(row('V8 tier', TIER_NAMES[n.tier]!));
  const pct = (v: number, of: number, noun: string) => (of > 0 ? ` (${formatPercent(v / of)} of ${noun})` : '');
  // Shares are of busy CPU (idle left out), as the pane's search share and cost are; the idle
  // frame's, and the whole run's (the root box), are of every sample.
  const idle = n.name === '(idle)' || n.key === '';
  const ofRun = (v: number) => (idle ? pct(v, totalsFor(run).all, 'all samples') : pct(v, runTotal, totalNoun(run)));
  el.append(row('total', `${formatWeight(n.value, run.unit)}${ofRun(n.value)}`));
  el.append(row('self', `${formatWeight(n.self, run.unit)}${ofRun(n.self)}`));
  if (delta !== undefined && n.key !== '')
    el.append(
      row(
        'Δ baseline',
        `${delta}${n.status === 2 ? ' (new)' : n.status === 3 ? ' (gone in this run)' : n.status === 4 ? ' (moved: the function runs under other callers on the other side)' : ''}`,
      ),
    );
  if (n.key !== '') for (const [label, value] of more) el.append(row(label, value));
  if (baseline && baseline !== run && n.key !== '') {
    const b = pathFigures(baseline, keyPath(d));
    const t = totalsFor(baseline);
    const [bt, noun] = idle ? [t.all, 'all samples'] : [t.busy, totalNoun(baseline)];
    el.append(
      row(
        'baseline',
        b
          ? `total ${formatWeight(b.total, baseline.unit)}${pct(b.total, bt, noun)}, self ${formatWeight(b.self, baseline.unit)}${pct(b.self, bt, noun)}`
          : 'not on this path in the baseline (new)',
      ),
    );
  }
}
