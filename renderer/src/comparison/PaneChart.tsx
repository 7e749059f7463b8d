import { useEffect, useMemo, useRef, useState } from 'react';
import { annotateView } from '../../../shared/diff/annotate-view';
import { formatDelta } from '../../../shared/diff/diff-query';
import type { Profile } from '../../../shared/model/types';
import type { ViewOptions, ViewTree } from '../../../shared/view/view-tree';
import { diffColor } from '../diff/diff-colors';
import { deltaWithInterval, formatDetectable, repeatsCount } from '../diff/repeats-format';
import { type RepeatsResult, beyondNoise, repeatsFor } from '../store/derived-repeats';
import { Status } from '../../../shared/diff/diff';
import {
  type DiffResult,
  comparedProfile,
  costFor,
  diffFor,
  mergedFor,
  rangeFor,
  searchFor,
  totalsFor,
  viewTreeFor,
} from '../store/derived';
import type { Run } from '../store/runs-slice';
import { baselineRunOf } from '../store/compared-with';
import { useStore } from '../store/store';
import { MATCH_COLOR, frameColor } from './colors';
import { hasTimestamps } from '../../../shared/heatmap/heatmap';
import { Timeline } from '../heatmap/Timeline';
import { FlameChart, type ScrollTo, framePathAt } from './flame-chart';
import { NotesLayer } from '../annotate/NotesLayer';
import { PaneFacts } from './PaneFacts';
import { fillTooltip } from './Tooltip';
import { type FocusCache, focusKey, recall } from './focus-cache';

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

/** The display name of a frame key (its function name). */
function nameOfKey(key: string): string {
  return key.split('\t')[0]!;
}

/** What the hover tooltip needs, kept current without re-creating the chart. */
interface HoverContext {
  drawn: Profile;
  /** the drawn tree's busy total, idle left out (within the time range when there is one) */
  drawnTotal: number;
  baseline: Profile | undefined;
  diff: DiffResult | undefined;
  /** where both sides are several repeats: each function's change across them */
  repeats: RepeatsResult | undefined;
}

/** The tooltip's rows on a function's change across repeats: Δ with its interval, and the smallest change the runs detect. */
function acrossRepeats(ctx: HoverContext, key: string): [string, string][] {
  const f = ctx.repeats?.byKey.get(key);
  const d = ctx.diff?.diff;
  if (!f || !d || !ctx.repeats) return [];
  const verdict = f.significant ? 'beyond noise' : 'within noise';
  const rows: [string, string][] = [[`Δ function, ${repeatsCount(ctx.repeats.stats.repeats)}`, `${deltaWithInterval(d, f)}, ${verdict}`]];
  const detectable = formatDetectable(d, f);
  if (detectable) rows.push(['detectable', `${detectable}: the smallest change these runs could detect`]);
  return rows;
}

/**
 * Where a draw leaves the pane: a new search shows what it matches (in every pane); a flame graph
 * grows upwards from its root, so it keeps the root in sight; an icicle's root is at the top, so a
 * new focus, or the switch from flame, scrolls back there, where the focused frame is drawn (third
 * row at most); else where the user left it.
 */
function scrollAfterDraw(d: { searched: boolean; flame: boolean; refocused: boolean }): ScrollTo {
  if (d.searched) return 'match';
  if (d.flame) return 'root';
  return d.refocused ? 'top' : 'keep';
}

/**
 * A run's flamegraph: its own tree, or against the run it is compared with (the baseline, or the
 * baseline of its format: ../store/compared-with) — diff, what disappeared, merged.
 */
export function PaneChart({ run }: { run: Run }) {
  const matchEntry = useStore((s) => s.matchEntry);
  const baselineRun = useStore((s) => baselineRunOf(s, run.id));
  const baseline = baselineRun?.profile;
  const own = run.profile!;
  const profile = useMemo(() => comparedProfile(own, baseline, matchEntry), [own, baseline, matchEntry]);
  const focus = useStore((s) => s.focus);
  const orientation = useStore((s) => s.orientation);
  const sort = useStore((s) => s.sort);
  const palette = useStore((s) => s.palette);
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const diffView = useStore((s) => s.diffView);
  const normalize = useStore((s) => s.normalize);
  const measure = useStore((s) => s.diffMeasure);
  const noise = useStore((s) => s.noisePercent);
  const baselineId = useStore((s) => s.baselineId);
  const range = useStore((s) => s.ranges[run.id]);
  const baseRange = useStore((s) => (baselineRun ? s.ranges[baselineRun.id] : undefined));
  const chartRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const chart = useRef<FlameChart | null>(null);
  // The same chart as state, for the notes layer (which must re-place notes after each draw).
  const [chartObj, setChartObj] = useState<FlameChart | null>(null);
  const [drawTick, setDrawTick] = useState(0);
  const hoverCtx = useRef<HoverContext | null>(null);
  const drawnFocus = useRef<unknown>(null);
  const drawnOrientation = useRef(orientation);
  const drawnQuery = useRef(query);
  const lastScroll = useRef<ScrollTo>('keep');
  const width = useWidth(chartRef);

  // Each derived value below is memoized by the shared function that makes it.
  const rw = rangeFor(profile, range);
  const baseRw = baseline ? rangeFor(baseline, baseRange) : undefined;
  // The trees are aligned only to draw the diff; the headline's cost needs the totals alone.
  const diff = baseline && diffView !== 'off' ? diffFor(baseline, profile, normalize, noise, baseRw, rw) : undefined;
  const cost = baseline ? costFor(baseline, profile, normalize, baseRw, rw) : undefined;
  const diffOn = diffView !== 'off' && diff?.diff !== undefined;
  const repeats = baseline ? repeatsFor(baselineRun, run, normalize, measure, matchEntry) : undefined;
  const merged = diffOn && diffView === 'merged' && baseline ? mergedFor(diff!.diff!, baseline, profile) : undefined;
  const [drawn, drawnRw] = merged ? [merged, undefined] : diffOn && diffView === 'removed' && baseline ? [baseline, baseRw] : [profile, rw];

  const search = searchFor(drawn, query, filterMode, drawnRw);
  // The trees of the last few focused paths are kept: Esc after a zoom draws the tree it drew before.
  const trees = useMemo<FocusCache<ViewTree | undefined>>(
    () => new Map(),
    // a new cache for inputs other than those the kept trees were made of
    // eslint-disable-next-line react-hooks/exhaustive-deps -- not read here: they decide when to start afresh
    [drawn, drawnRw, sort, width, search, run.title, diffOn, diff, measure],
  );
  const view = recall(trees, focusKey(focus), () => {
    if (width <= 0) return undefined;
    const opts: ViewOptions = { focus, sort, minFraction: 1 / width, rootName: run.title };
    const totals = search.totals ?? drawnRw?.total;
    if (totals) opts.totals = totals;
    if (drawnRw) opts.self = drawnRw.self;
    if (search.matches) opts.matches = search.matches;
    const tree = viewTreeFor(drawn, opts);
    if (diffOn) annotateView(tree.root, diff!.diff!, diff!.index!, measure);
    return tree;
  });

  useEffect(() => {
    hoverCtx.current = { drawn, drawnTotal: totalsFor(drawn, drawnRw).busy, baseline, diff: diffOn ? diff : undefined, repeats };
  });

  // The chart is created once per pane; it reports clicks and hovers to the store.
  useEffect(() => {
    const el = chartRef.current!;
    const tip = tipRef.current!;
    const c = new FlameChart(el, {
      onFocus: (path) => {
        const st = useStore.getState();
        if (st.pointerMode === 'note' && path.length > 0) {
          st.draftStarted({ kind: 'note', anchor: { keyPath: path }, runId: run.id, label: nameOfKey(path[path.length - 1]!) });
        } else st.pathFocused(path);
      },
      onContext: (path, name) => {
        if (path.length > 0) useStore.getState().draftStarted({ kind: 'note', anchor: { keyPath: path }, runId: run.id, label: name });
      },
      onHover: (d, ev) => {
        useStore.getState().frameHovered(d ? d.data.key : null);
        const ctx = hoverCtx.current;
        if (!d || !ev || !ctx) {
          tip.hidden = true;
          return;
        }
        const delta = ctx.diff?.diff && d.data.delta !== undefined ? formatDelta(ctx.diff.diff, d.data.delta) : undefined;
        fillTooltip(tip, d, ctx.drawn, ctx.drawnTotal, ctx.baseline, delta, acrossRepeats(ctx, d.data.key));
        tip.hidden = false;
        // Fixed to the window (not inside the scrolling chart, where it would add to the scroll
        // height), beside the pointer and kept on screen.
        const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 4);
        const below = ev.clientY + 16;
        const y = below + tip.offsetHeight > window.innerHeight - 4 ? ev.clientY - tip.offsetHeight - 8 : below;
        tip.style.left = `${Math.max(0, x)}px`;
        tip.style.top = `${Math.max(0, y)}px`;
      },
    });
    chart.current = c;
    setChartObj(c);
    const unsubscribe = useStore.subscribe((s, prev) => {
      if (s.hoveredKey !== prev.hoveredKey) c.highlight(s.hoveredKey);
    });
    return () => {
      unsubscribe();
      c.destroy();
      chart.current = null;
    };
  }, [run.id]);

  useEffect(() => {
    if (!view || !chart.current) return;
    const matchColor = MATCH_COLOR[palette];
    const scale = diff?.maxDelta[measure] ?? 0;
    const scroll = scrollAfterDraw({
      searched: query !== drawnQuery.current && query.trim() !== '' && filterMode === 'highlight',
      flame: orientation === 'flame',
      refocused: drawnFocus.current !== focus || drawnOrientation.current !== orientation,
    });
    chart.current.render(
      view.root,
      width,
      orientation === 'icicle',
      (d) => {
        if (d.match && filterMode === 'highlight') return matchColor;
        // A change that does not hold up across the repeats is drawn as unchanged.
        const status = d.status !== Status.Moved && !beyondNoise(repeats, d.key) ? Status.Unchanged : d.status;
        if (diffOn && !d.context && d.key !== '') return diffColor(palette, status, d.delta, scale);
        return frameColor(palette, d.category, d.tier, d.key, d.context);
      },
      scroll,
    );
    drawnFocus.current = focus;
    drawnOrientation.current = orientation;
    drawnQuery.current = query;
    if (scroll !== 'keep') lastScroll.current = scroll;
    setDrawTick((t) => t + 1);
  }, [view, focus, width, orientation, palette, filterMode, diffOn, diff, measure, query, repeats]);

  // When the pane's height changes (a run above it failed, a layout switch, the search's figures
  // took a line): a flame graph, which grows upwards from its root, keeps the root in sight, and
  // after a search the widest match stays in view.
  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (lastScroll.current === 'match') chart.current?.showMatch();
      else if (orientation === 'flame') el.scrollTop = el.scrollHeight;
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [orientation]);

  const missing = view && view.focusDepth < focus.length;
  const timed = hasTimestamps(profile);
  return (
    <>
      <PaneFacts
        run={run}
        profile={profile}
        baseline={baseline}
        rw={rw}
        baseRw={baseRw}
        cost={cost}
        repeats={repeats}
        drawnLabel={diffOn ? diffView : undefined}
        against={baselineRun && baselineRun.id !== baselineId ? baselineRun.title : undefined}
      />
      {timed && <Timeline runId={run.id} title={run.title} profile={profile} width={width} />}
      {missing && (
        <div className="pane-note" role="note">
          This run does not have the full focused path; showing its deepest matching frame.
        </div>
      )}
      <div className="pane-chart" ref={chartRef} data-testid="flame-chart">
        <NotesLayer runId={run.id} chart={chartObj} tick={drawTick} framePathAt={framePathAt} />
        <div className="tooltip" ref={tipRef} hidden role="tooltip" />
      </div>
    </>
  );
}
