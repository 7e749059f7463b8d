import { useEffect, useMemo, useRef, useState } from 'react';
import type { ViewOptions, ViewTree } from '../../../shared/view/view-tree';
import { cancelImport } from '../import/open';
import { searchFor, viewTreeFor } from '../store/derived';
import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';
import { MATCH_COLOR, frameColor } from './colors';
import { FlameChart } from './flame-chart';
import { formatBytes, formatDuration, formatPercent, formatPoints, formatWeight } from './format';
import { fillTooltip } from './Tooltip';
import { PaneHeader } from './PaneHeader';

interface Props {
  run: Run;
  index: number;
  count: number;
}

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

export function FlamePane({ run, index, count }: Props) {
  const baselineId = useStore((s) => s.baselineId);
  const baseline = useStore((s) => s.runs.find((r) => r.id === s.baselineId)?.profile);
  const isBaseline = baselineId === run.id;
  return (
    <section className={`pane pane-${run.status}`} role="region" aria-label={`Run ${run.title}`} data-run-id={run.id}>
      <PaneHeader run={run} index={index} count={count} isBaseline={isBaseline} />
      {run.status === 'loading' && <Loading run={run} />}
      {run.status === 'error' && (
        <div className="pane-error" role="alert">
          <strong>Could not open this file.</strong>
          <p>{run.error}</p>
        </div>
      )}
      {run.status === 'ready' && run.profile && <Chart run={run} baseline={isBaseline ? undefined : baseline} />}
    </section>
  );
}

function Loading({ run }: { run: Run }) {
  const read = run.bytesRead ?? 0;
  const size = run.size;
  return (
    <div className="pane-loading">
      <span>Reading {run.fileName}…</span>
      <progress max={size ?? undefined} value={size ? read : undefined} aria-label={`Loading ${run.fileName}`} />
      <span className="muted">
        {formatBytes(read)}
        {size ? ` of ${formatBytes(size)}` : ''}
      </span>
      <button type="button" onClick={() => cancelImport(run.id)}>
        Cancel
      </button>
    </div>
  );
}

function Chart({ run, baseline }: { run: Run; baseline: Run['profile'] }) {
  const profile = run.profile!;
  const focus = useStore((s) => s.focus);
  const orientation = useStore((s) => s.orientation);
  const sort = useStore((s) => s.sort);
  const palette = useStore((s) => s.palette);
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const chartRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const chart = useRef<FlameChart | null>(null);
  const width = useWidth(chartRef);

  const search = useMemo(() => searchFor(profile, query, filterMode), [profile, query, filterMode]);
  const baseSearch = useMemo(() => (baseline ? searchFor(baseline, query, filterMode) : undefined), [baseline, query, filterMode]);
  const view: ViewTree | undefined = useMemo(() => {
    if (width <= 0) return undefined;
    const opts: ViewOptions = { focus, sort, minFraction: 1 / width, rootName: run.title };
    if (search.totals) opts.totals = search.totals;
    if (search.matches) opts.matches = search.matches;
    return viewTreeFor(profile, opts);
  }, [profile, focus, sort, width, search, run.title]);

  // The chart is created once per pane; it reports clicks and hovers to the store.
  useEffect(() => {
    const el = chartRef.current!;
    const tip = tipRef.current!;
    const c = new FlameChart(el, {
      onFocus: (path) => useStore.getState().pathFocused(path),
      onHover: (d, ev) => {
        useStore.getState().frameHovered(d ? d.data.key : null);
        if (!d || !ev) {
          tip.hidden = true;
          return;
        }
        const current = useStore.getState().runs.find((r) => r.id === run.id);
        const base = useStore.getState().runs.find((r) => r.id === useStore.getState().baselineId)?.profile;
        if (!current?.profile) return;
        fillTooltip(tip, d, current.profile, current.profile.tree.total[0]!, base);
        tip.hidden = false;
        const box = el.getBoundingClientRect();
        const x = Math.min(ev.clientX - box.left + 14, box.width - tip.offsetWidth - 4);
        tip.style.left = `${Math.max(0, x)}px`;
        tip.style.top = `${ev.clientY - box.top + el.scrollTop + 16}px`;
      },
    });
    chart.current = c;
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
    chart.current.render(view.root, width, orientation === 'icicle', (d) =>
      d.match && filterMode === 'highlight' ? matchColor : frameColor(palette, d.category, d.tier, d.key, d.context),
    );
    // Flame orientation grows upwards: keep the root in sight. Done in the next frame so that all
    // panes' updates are laid out once, not once per pane.
    if (orientation === 'flame') {
      const el = chartRef.current!;
      requestAnimationFrame(() => (el.scrollTop = el.scrollHeight));
    }
  }, [view, width, orientation, palette, filterMode]);

  const missing = view && view.focusDepth < focus.length;
  const share = search.share;
  const baseShare = baseSearch?.share;
  const duration = profile.meta.startTime !== undefined && profile.meta.endTime !== undefined ? profile.meta.endTime - profile.meta.startTime : undefined;
  return (
    <>
      <div className="pane-facts">
        <span>{profile.format}</span>
        <span>{profile.unit}</span>
        <span title="total weight">{formatWeight(profile.tree.total[0]!, profile.unit)}</span>
        {duration !== undefined && duration > 0 && <span title="duration">{formatDuration(duration)}</span>}
        {share && (
          <output className="share" role="status" aria-label={`Search share in ${run.title}`}>
            matches own <strong>{formatPercent(share.inclusive)}</strong> inclusive, <strong>{formatPercent(share.self)}</strong> self
            {baseShare && baseline && <> · {formatPoints((share.inclusive - baseShare.inclusive) * 100)} vs baseline</>}
          </output>
        )}
        {search.error && <span className="error-text">{search.error}</span>}
      </div>
      {missing && (
        <div className="pane-note" role="note">
          This run does not have the full focused path; showing its deepest matching frame.
        </div>
      )}
      <div className="pane-chart" ref={chartRef} data-testid="flame-chart">
        <div className="tooltip" ref={tipRef} hidden role="tooltip" />
      </div>
    </>
  );
}
