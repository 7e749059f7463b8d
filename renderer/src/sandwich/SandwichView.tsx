/**
 * The sandwich view: one function, chosen by name here or from the diff table, with what calls
 * it (callers, inverted: the closest caller first) and what it calls (callees), every run side by
 * side in columns with its weight and the change against the baseline. This is where a user sees
 * which agent wrapper calls a hot function. Weights are each run's busy CPU (idle left out)
 * within its time range, as the panes count them.
 */
import { useState } from 'react';
import { commonUnit, otherMeasure } from '../../../shared/diff/measure';
import { formatWeight } from '../../../shared/diff/diff-query';
import type { Profile, Unit } from '../../../shared/model/types';
import { type Sandwich, type SandwichRow, sandwich, sandwichRows } from '../../../shared/view/sandwich';
import type { RangeWeights } from '../../../shared/heatmap/heatmap';
import { compileQuery } from '../../../shared/search/matcher';
import { type FunctionShare, functionShares } from '../../../shared/view/function-stats';
import { busyFor, comparedProfile, rangeFor, searchFor, totalsFor } from '../store/derived';
import { baselineKind, baselineRunOf } from '../store/compared-with';
import { useStore } from '../store/store';
import './sandwich.css';

interface Column {
  id: string;
  title: string;
  /** the run is a baseline (the baseline, or the baseline of its format) */
  baseline: boolean;
  /** the column of the run this one is compared with; -1 for a baseline */
  baseIndex: number;
  unit: Unit;
  busy: number;
  s: Sandwich | undefined;
  /**
   * how this run's weights and the baseline's convert to one unit, where they do (microseconds
   * and nanoseconds do; bytes and time do not): only then is there a Δ vs baseline
   */
  vsBase: { unit: Unit; scale: number; baseScale: number } | undefined;
  /** why there is no Δ (`vsBase` undefined) for a run that is not the baseline */
  unlike: string;
}

const sandwichCache = new WeakMap<Float64Array, { key: string; s: Sandwich | undefined }>();

/** The sandwich of `key` in `p` weighed by `self` (the same weights object gives the same sandwich). */
function sandwichOf(p: Profile, key: string, self: Float64Array): Sandwich | undefined {
  const hit = sandwichCache.get(self);
  if (hit?.key === key) return hit.s;
  const s = sandwich(p, key, self);
  sandwichCache.set(self, { key, s });
  return s;
}

/** Rows smaller than this share of the function's largest total are left out. */
const MIN_SHARE = 0.002;

export function SandwichView() {
  const runs = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
  const ranges = useStore((s) => s.ranges);
  const matchEntry = useStore((s) => s.matchEntry);
  const key = useStore((s) => s.sandwichKey);
  const ready = runs.filter((r) => r.status === 'ready' && r.profile);
  // each run with the run it is compared with (the baseline, or the baseline of its format), as
  // compared with it (entry scripts matched), so that keys line up
  const profiles = ready.map((r) => {
    const base = baselineRunOf({ runs, baselineId }, r.id);
    const baseIndex = base ? ready.indexOf(base) : -1;
    const baseline = baseIndex >= 0 ? base!.profile : undefined;
    return { run: r, p: comparedProfile(r.profile!, baseline, matchEntry), baseline, baseIndex };
  });

  const columns: Column[] = profiles.map(({ run, p, baseline, baseIndex }) => {
    const rw = rangeFor(p, ranges[run.id]);
    return {
      id: run.id,
      title: run.title,
      baseline: baselineKind({ runs, baselineId }, run.id) !== undefined,
      baseIndex,
      unit: p.unit,
      busy: totalsFor(p, rw).busy,
      s: key === undefined ? undefined : sandwichOf(p, key, busyFor(p, rw)),
      vsBase: baseline ? vsBaseline(p, baseline) : undefined,
      unlike: baseline && otherMeasure(baseline, p) ? 'spans, not CPU' : 'other unit',
    };
  });
  const found = columns.find((c) => c.s)?.s;

  return (
    <section className="sandwich" aria-label="Sandwich">
      <FunctionPicker runs={profiles.map(({ run, p }) => ({ p, rw: rangeFor(p, ranges[run.id]) }))} chosen={found} />
      {key !== undefined && !found && <p className="muted">No open run has this function.</p>}
      {found && (
        <>
          <Summary columns={columns} />
          <SandwichTable title={`Callers of ${found.name}`} hint="who calls it, closest caller first" columns={columns} which="callers" />
          <SandwichTable
            title={`Callees of ${found.name}`}
            hint="what it calls, from every place it runs"
            columns={columns}
            which="callees"
          />
        </>
      )}
    </section>
  );
}

/**
 * The functions to choose from, as buttons: with text typed here, those whose name or file holds
 * it; otherwise, with a search in the toolbar, the functions it matches (an agent's, say); otherwise
 * the hottest. Each shows its largest share of a run's busy CPU, total or self as ranked.
 */
function FunctionPicker({ runs, chosen }: { runs: { p: Profile; rw: RangeWeights | undefined }[]; chosen: Sandwich | undefined }) {
  const [text, setText] = useState('');
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const q = text.trim().toLowerCase();
  const search = q ? undefined : compileQuery(query);
  const searched = search && !search.error ? query.trim() : undefined;
  const by = q || searched ? 'total' : 'self';
  // (the search as the panes' figures ask for it, so that both share one cached result)
  const lists = runs.map(({ p, rw }) => sharesOf(p, busyFor(p, rw), searched ? searchFor(p, query, filterMode, rw).matches : undefined));
  const ranked = rankedFunctions(lists, by);
  const shown = (q ? ranked.filter((f) => f.name.toLowerCase().includes(q) || f.file.toLowerCase().includes(q)) : ranked).slice(0, 12);
  const caption = `${
    q ? 'Functions with this in their name or file' : searched ? `Functions the search “${searched}” matches` : 'Hottest functions'
  }, by ${by === 'self' ? 'self time' : 'total'} (share of the run where it is largest):`;
  return (
    <div className="sandwich-picker">
      <label>
        Function{' '}
        <input
          type="search"
          value={text}
          placeholder={chosen ? chosen.name : 'name or file'}
          aria-label="Function to show"
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && shown[0]) {
              useStore.getState().sandwichShown(shown[0].key);
              setText('');
            }
          }}
        />
      </label>
      {chosen && (
        <span className="sandwich-chosen" title={chosen.file}>
          {chosen.name} <span className="muted">{shortFile(chosen.file)}</span>
        </span>
      )}
      {(q || !chosen) && (
        <>
          <p className="sandwich-choices-caption muted" id="sandwich-choices-caption">
            {caption}
          </p>
          <ul className="sandwich-choices" aria-label="Functions" aria-describedby="sandwich-choices-caption">
            {shown.map((f) => (
              <li key={f.key}>
                <button
                  type="button"
                  title={f.file}
                  onClick={() => {
                    useStore.getState().sandwichShown(f.key);
                    setText('');
                  }}
                >
                  {f.name} <span className="muted">{shortFile(f.file)}</span>{' '}
                  <span className="sandwich-choice-share">{percent(f[by])}</span>
                </button>
              </li>
            ))}
            {shown.length === 0 && <li className="muted">No function matches.</li>}
          </ul>
        </>
      )}
    </div>
  );
}

/** A share (0 to 1) as a percentage with one decimal; "<0.1%" for what would show as 0.0%. */
function percent(x: number): string {
  return x > 0 && x < 0.0005 ? '<0.1%' : `${(x * 100).toFixed(1)}%`;
}

const sharesCache = new WeakMap<Float64Array, { matches: Uint8Array | undefined; list: FunctionShare[] }>();

/** The functions of one run weighed by `busy` (only those the search matches, with `matches`). */
function sharesOf(p: Profile, busy: Float64Array, matches: Uint8Array | undefined): FunctionShare[] {
  const hit = sharesCache.get(busy);
  if (hit && hit.matches === matches) return hit.list;
  const list = functionShares(p, busy, matches);
  sharesCache.set(busy, { matches, list });
  return list;
}

/** Functions of all runs by frame key, each with its largest shares in any run, ranked by `by`. */
function rankedFunctions(lists: FunctionShare[][], by: 'self' | 'total'): FunctionShare[] {
  const byKey = new Map<string, FunctionShare>();
  for (const list of lists)
    for (const f of list) {
      const e = byKey.get(f.key);
      if (!e) byKey.set(f.key, { ...f });
      else {
        e.self = Math.max(e.self, f.self);
        e.total = Math.max(e.total, f.total);
      }
    }
  return [...byKey.values()].sort((a, b) => b[by] - a[by] || a.name.localeCompare(b.name));
}

function shortFile(file: string): string {
  return file.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '');
}

function share(w: number, busy: number): string {
  return busy > 0 ? `${((w / busy) * 100).toFixed(1)}%` : '';
}

function vsBaseline(p: Profile, baseline: Profile): Column['vsBase'] {
  const cu = otherMeasure(baseline, p) ? undefined : commonUnit(baseline.unit, p.unit);
  return cu && { unit: cu.unit, scale: cu.scaleB, baseScale: cu.scaleA };
}

/** The run's weight minus the baseline's, in the unit both convert to. */
function change(c: Column, w: number, base: number): number {
  return w * c.vsBase!.scale - base * c.vsBase!.baseScale;
}

function delta(c: Column, w: number, base: number | undefined): string {
  if (base === undefined || !c.vsBase) return '';
  const d = change(c, w, base);
  if (d === 0) return '±0';
  return `${d > 0 ? '+' : '−'}${formatWeight(Math.abs(d), c.vsBase.unit)}`;
}

/** Per run: the function's total (share of busy CPU), self, and the change of its total against the baseline. */
function Summary({ columns }: { columns: Column[] }) {
  const compared = columns.some((c) => c.baseIndex >= 0);
  const baseOf = (c: Column) => columns[c.baseIndex];
  return (
    <table className="sandwich-summary" aria-label="Function totals">
      <thead>
        <tr>
          <th />
          {columns.map((c) => (
            <th key={c.id} scope="col">
              {c.title}
              {c.baseline && <span className="muted"> (baseline)</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">total</th>
          {columns.map((c) => (
            <td key={c.id}>
              {c.s ? (
                <>
                  {formatWeight(c.s.total, c.unit)} <span className="muted">{share(c.s.total, c.busy)}</span>
                </>
              ) : (
                <span className="muted">not in this run</span>
              )}
            </td>
          ))}
        </tr>
        <tr>
          <th scope="row">self</th>
          {columns.map((c) => (
            <td key={c.id}>{c.s ? formatWeight(c.s.self, c.unit) : '—'}</td>
          ))}
        </tr>
        {compared && (
          <tr>
            <th scope="row">Δ total vs baseline</th>
            {columns.map((c) => (
              <td
                key={c.id}
                className={deltaClass(c, baseOf(c), (x) => x.s?.total ?? 0)}
                title={baseOf(c) && `against ${baseOf(c)!.title}`}
              >
                {c.baseline ? (
                  ''
                ) : c.vsBase ? (
                  delta(c, c.s?.total ?? 0, baseOf(c)?.s?.total ?? 0)
                ) : (
                  <span className="muted">{c.unlike}</span>
                )}
              </td>
            ))}
          </tr>
        )}
      </tbody>
    </table>
  );
}

function deltaClass(c: Column, base: Column | undefined, w: (c: Column) => number): string {
  if (!base || c.baseline || !c.vsBase) return '';
  const d = change(c, w(c), w(base));
  return d > 0 ? 'up' : d < 0 ? 'down' : '';
}

/** A caller or callee tree of every run as one table, folding by row. */
function SandwichTable({ title, hint, columns, which }: { title: string; hint: string; columns: Column[]; which: 'callers' | 'callees' }) {
  const [expanded, setExpanded] = useState<Set<string> | undefined>(undefined);
  const trees = columns.map((c) => c.s?.[which]);
  const all = sandwichRows(trees, { minShare: MIN_SHARE });
  // until the user folds or unfolds a row, the first two levels are open
  const open = expanded ?? new Set(all.filter((r) => r.depth < 1).map((r) => r.path.join('\u0000')));
  const rows = sandwichRows(trees, { minShare: MIN_SHARE, expanded: open });
  const toggle = (r: SandwichRow) => {
    const id = r.path.join('\u0000');
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setExpanded(next);
  };
  return (
    <div className="sandwich-tree">
      <h3>
        {title} <span className="muted">{hint}</span>
      </h3>
      {rows.length === 0 ? (
        <p className="muted">{which === 'callers' ? 'Nothing calls it: it is a root.' : 'It calls nothing: all of its time is its own.'}</p>
      ) : (
        <table aria-label={title}>
          <thead>
            <tr>
              <th scope="col">function</th>
              {columns.map((c) => (
                <th key={c.id} scope="col">
                  {c.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const id = r.path.join('\u0000');
              return (
                <tr key={id} aria-level={r.depth + 1} aria-expanded={r.hasChildren ? open.has(id) : undefined}>
                  <td style={{ paddingLeft: `${r.depth * 14 + 4}px` }} title={r.file}>
                    {r.hasChildren ? (
                      <button
                        type="button"
                        className="fold"
                        aria-label={open.has(id) ? `Fold ${r.name}` : `Unfold ${r.name}`}
                        onClick={() => toggle(r)}
                      >
                        {open.has(id) ? '▾' : '▸'}
                      </button>
                    ) : (
                      <span className="fold" />
                    )}
                    <button
                      type="button"
                      className="link"
                      title={`Show the sandwich of ${r.name}`}
                      onClick={() => useStore.getState().sandwichShown(r.key)}
                    >
                      {r.name}
                    </button>{' '}
                    <span className="muted file">{shortFile(r.file)}</span>
                  </td>
                  {columns.map((c, i) => {
                    const base = c.baseIndex >= 0 && c.vsBase ? r.weights[c.baseIndex] : undefined;
                    const w = r.weights[i]!;
                    const d = base === undefined ? 0 : change(c, w, base);
                    return (
                      <td key={c.id} className={d > 0 ? 'up' : d < 0 ? 'down' : ''}>
                        {w > 0 ? formatWeight(w, c.unit) : '—'}
                        {d !== 0 && <span className="delta"> {delta(c, w, base)}</span>}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
