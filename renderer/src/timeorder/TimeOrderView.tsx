/**
 * The time-order view: every run's samples in time order (a flame chart), one lane per run on
 * one axis of time from each run's start, so that the start-up of each run lines up. The
 * overview above picks a time range for every run — the range the heatmap sets, so the
 * flamegraphs, shares and diff follow it. A lane shows the thread its pane's picker chose.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatWeight } from '../../../shared/diff/diff-query';
import { totalNoun } from '../../../shared/search/busy';
import { hasTimeAxis } from '../../../shared/view/time-order';
import { formatDuration, formatPercent } from '../comparison/format';
import { rangeFor, searchFor, totalsFor } from '../store/derived';
import type { TimeRange } from '../store/ranges-slice';
import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';
import { type Window, axisFor } from './axis';
import { Lane } from './Lane';
import { Minimap, type Timed, fmtMs } from './Minimap';
import './time-order.css';

/** A run's time range on the shared axis (µs from its start). */
function onAxis(range: TimeRange | undefined, origin: number): Window | undefined {
  return range && { t0: range.start * 1e6 - origin, t1: range.end * 1e6 - origin };
}

/** The container's size, followed as the window changes. */
function useSize(): [React.RefObject<HTMLDivElement | null>, { width: number; height: number }] {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, size];
}

/** The lanes of the runs that are ready, and those of them with times. */
function lanesOf(runs: Run[]) {
  const lanes = runs
    .filter((r) => r.status === 'ready' && r.profile)
    .map((run) => ({ run, profile: run.profile!, axis: axisFor(run.profile!) }));
  const timed: (Timed & { run: Run })[] = [];
  for (const l of lanes) if (hasTimeAxis(l.axis)) timed.push({ run: l.run, profile: l.profile, axis: l.axis });
  return { lanes, timed };
}

const LANE_HEAD = 22;
const CHROME = 96;

export function TimeOrderView() {
  const allRuns = useStore((s) => s.runs);
  const ranges = useStore((s) => s.ranges);
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const palette = useStore((s) => s.palette);
  const [ref, size] = useSize();
  const [view, setView] = useState<Window | null>(null);
  // the same arrays until the runs change, so that the overview is not drawn again on a zoom
  const { lanes, timed } = useMemo(() => lanesOf(allRuns), [allRuns]);
  const span = Math.max(1, ...timed.map((t) => t.axis.span));
  const shown = view && view.t1 <= span ? view : { t0: 0, t1: span };
  const width = Math.max(0, size.width - 20);
  const laneHeight = Math.max(48, Math.floor((size.height - CHROME) / Math.max(1, lanes.length)) - LANE_HEAD);
  const first = timed[0];
  const range = first && onAxis(ranges[first.run.id], first.axis.origin);

  const pick = (w: Window) => {
    for (const t of timed)
      useStore.getState().rangeSelected(t.run.id, { start: (t.axis.origin + w.t0) / 1e6, end: (t.axis.origin + w.t1) / 1e6 });
  };
  const clear = () => {
    for (const t of timed) useStore.getState().rangeCleared(t.run.id);
  };
  return (
    <div className="timeorder" ref={ref}>
      <div className="timeorder-bar">
        <span role="status" aria-label="Time range" title="the range the flamegraphs, shares and diff show">
          {range
            ? `Range ${fmtMs(range.t0)}–${fmtMs(range.t1)} ms from start in ${timed.length} run${timed.length === 1 ? '' : 's'}`
            : 'Drag across the overview, or click a box, to pick a time range'}
        </span>
        <span className="spacer" />
        <span className="muted" title="wheel zooms, drag pans, Shift+wheel scrolls the stacks">
          showing {fmtMs(shown.t0)}–{fmtMs(shown.t1)} ms
        </span>
        <button type="button" onClick={() => setView(null)} disabled={!view}>
          Whole runs
        </button>
        <button type="button" onClick={clear} disabled={!range}>
          Clear range
        </button>
      </div>
      {timed.length > 0 && (
        <Minimap
          runs={timed}
          span={span}
          view={shown}
          range={range}
          width={width}
          onPick={(w) => {
            pick(w);
            setView(w);
          }}
          onReset={() => setView(null)}
        />
      )}
      {lanes.map(({ run, profile, axis }) => {
        const rw = rangeFor(profile, ranges[run.id]);
        const search = query ? searchFor(profile, query, filterMode, rw) : undefined;
        const own = hasTimeAxis(axis) ? onAxis(ranges[run.id], axis.origin) : undefined;
        return (
          <section
            key={run.id}
            className="timeorder-lane"
            aria-label={`Time order of ${run.title}`}
            data-range-start={ranges[run.id]?.start}
            data-range-end={ranges[run.id]?.end}
          >
            <header style={{ height: LANE_HEAD }}>
              <h3 title={run.path ?? run.title}>{run.title}</h3>
              <span className="muted">{profile.format}</span>
              {hasTimeAxis(axis) && (
                <span className="muted">
                  {axis.node.length.toLocaleString('en-US')} samples in {formatDuration(axis.span)}
                </span>
              )}
              {rw && (
                <span>
                  {formatWeight(totalsFor(profile, rw).busy, profile.unit)} {totalNoun(profile)} in range
                </span>
              )}
              {search?.share && (
                <output className="share" aria-label={`Search share in the time order of ${run.title}`}>
                  matches own <strong>{formatPercent(search.share.inclusive)}</strong> of {totalNoun(profile)}
                  {rw ? ' in range' : ''}
                </output>
              )}
            </header>
            {hasTimeAxis(axis) ? (
              <Lane
                title={run.title}
                profile={profile}
                axis={axis}
                view={shown}
                span={span}
                width={width}
                height={laneHeight}
                palette={palette}
                matches={search?.matches}
                range={own}
                onView={setView}
                onPick={pick}
              />
            ) : (
              <p className="timeorder-none" style={{ height: laneHeight }}>
                {axis.reason}
              </p>
            )}
          </section>
        );
      })}
    </div>
  );
}
