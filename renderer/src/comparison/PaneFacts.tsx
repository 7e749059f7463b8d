import { memo } from 'react';
import { formatChange } from '../../../shared/diff/diff-query';
import type { Profile } from '../../../shared/model/types';
import type { RangeWeights } from '../../../shared/heatmap/heatmap';
import { measuredDetail, measuredText } from '../../../shared/runs/measured';
import { totalNoun } from '../../../shared/search/busy';
import type { CostResult } from '../store/derived';
import type { RepeatsResult } from '../store/derived-repeats';
import { costPlusMinus, repeatsCount } from '../diff/repeats-format';
import { searchFor, totalsFor } from '../store/derived';
import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';
import { ThreadPicker } from './ThreadPicker';
import { formatDuration, formatPercent, formatPoints, formatWeight } from './format';

/** What a change in this profile's total means, in words. */
function costWord(p: Profile): string {
  if (p.kind === 'heap') return 'retained bytes';
  if (p.unit === 'bytes') return 'allocated bytes';
  if (p.unit === 'events') return 'events';
  if (p.kind === 'spans') return 'span time';
  return 'CPU time';
}

const DRAWN_LABEL: Record<string, string> = {
  diff: 'coloured by change against the baseline',
  removed: "the baseline's tree, coloured against this run",
  merged: 'merged tree of both runs',
};

interface Props {
  run: Run;
  profile: Profile;
  baseline: Profile | undefined;
  /** the run's and the baseline's weights within their time ranges */
  rw: RangeWeights | undefined;
  baseRw: RangeWeights | undefined;
  /** the run's cost against the baseline, or why they do not compare */
  cost: CostResult | undefined;
  /** where both sides are several repeats: the changes across them */
  repeats?: RepeatsResult | undefined;
  drawnLabel: string | undefined;
  /** the title of the run compared with, where it is the baseline of this run's format rather than the baseline */
  against?: string | undefined;
}

/** Whether a run without idle samples is all busy CPU time: samples weighed in time (perf's `cpu-clock`). */
function busyTime(p: Profile): boolean {
  return p.kind === 'sampled' && (p.unit === 'microseconds' || p.unit === 'nanoseconds');
}

/**
 * The facts line of a pane: format, unit, total (and busy CPU, idle left out, when the run has idle
 * samples), duration, cost against the baseline, search share of busy CPU.
 */
export const PaneFacts = memo(function PaneFacts({ run, profile, baseline, rw, baseRw, cost, repeats, drawnLabel, against }: Props) {
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  // The share read-out is always of the run itself (in its range), whatever the pane draws.
  const search = searchFor(profile, query, filterMode, rw);
  const own = search.share;
  // (shares of the same measure only: points between a share of span time, or of bytes, and a
  // share of CPU time say nothing)
  const baseShare =
    baseline && totalNoun(baseline) === totalNoun(profile) ? searchFor(baseline, query, filterMode, baseRw).share : undefined;
  const duration =
    profile.meta.startTime !== undefined && profile.meta.endTime !== undefined ? profile.meta.endTime - profile.meta.startTime : undefined;
  const d = cost?.summary;
  const totals = totalsFor(profile);
  const threads = profile.meta.threads;
  return (
    <div className="pane-facts">
      <span>{profile.format}</span>
      <span>{profile.unit}</span>
      <span title={totals.idle > 0 ? 'every sample, idle included' : 'total weight'}>
        {formatWeight(totals.all, profile.unit)}
        {totals.idle > 0 ? ' in all' : busyTime(profile) ? ' busy CPU' : ''}
      </span>
      {totals.idle > 0 && (
        <span title="idle samples left out: what shares and the cost against the baseline are of">
          {formatWeight(totals.busy, profile.unit)} busy CPU
        </span>
      )}
      {threads && threads.length > 1 && <ThreadPicker run={run} profile={profile} />}
      {rw && <RangeBadge runId={run.id} title={run.title} rw={rw} profile={profile} />}
      {duration !== undefined && duration > 0 && <span title="duration">{formatDuration(duration)} long</span>}
      {d && (
        <output className="headline" role="status" aria-label={`Cost of ${run.title} against the baseline`}>
          <strong>
            {formatChange(d.change)}
            {repeats && costPlusMinus(repeats.stats.total)}
          </strong>{' '}
          {costWord(profile)} vs {against ?? 'baseline'}
          {d.baseline.idle + d.run.idle > 0 ? ' (idle left out)' : ''}
          {repeats && `, 95% interval over ${repeatsCount(repeats.stats.repeats)}`}
        </output>
      )}
      {run.measured && (
        <span className="measured" title={measuredDetail(run.measured)} aria-label={`Measured under load: ${run.title}`}>
          {measuredText(run.measured)}
        </span>
      )}
      {cost?.error && <span className="error-text">{cost.error}</span>}
      {own && (
        <output className="share" role="status" aria-label={`Search share in ${run.title}`}>
          matches own <strong>{formatPercent(own.inclusive)}</strong> inclusive, <strong>{formatPercent(own.self)}</strong> self of{' '}
          {totalNoun(profile)}
          {baseShare && baseline && (
            <>
              {' '}
              · {formatPoints((own.inclusive - baseShare.inclusive) * 100)} vs {against ?? 'baseline'}
            </>
          )}
        </output>
      )}
      {search.error && <span className="error-text">{search.error}</span>}
      {drawnLabel && <span className="muted">{DRAWN_LABEL[drawnLabel]}</span>}
      {d && d.warnings.length > 0 && <CompareWarnings title={run.title} warnings={d.warnings} />}
    </div>
  );
});

/**
 * Why the run may not compare with the baseline: one line that gives way to the figures beside it
 * (so that a pane's height does not change as they come and go), all of it on a click.
 */
function CompareWarnings({ title, warnings }: { title: string; warnings: string[] }) {
  return (
    <details className="compare-warning" role="note" aria-label={`Warning on ${title}`}>
      <summary title={warnings.join('\n')}>
        ⚠ {warnings.length > 1 ? `${warnings.length} warnings: ` : ''}
        {warnings[0]}
      </summary>
      <ul>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </details>
  );
}

function RangeBadge({ runId, title, rw, profile }: { runId: string; title: string; rw: RangeWeights; profile: Profile }) {
  const range = useStore((s) => s.ranges[runId]);
  if (!range) return null;
  const t0 = (profile.meta.startTime ?? range.start * 1e6) / 1e6;
  return (
    <span className="range-badge" role="status" aria-label={`Time range of ${title}`}>
      range {(range.start - t0).toFixed(2)}–{(range.end - t0).toFixed(2)} s: <strong>{rw.sampleCount.toLocaleString('en-US')}</strong>{' '}
      samples, {formatWeight(rw.total[0]!, profile.unit)}
      <button type="button" className="link" onClick={() => useStore.getState().rangeCleared(runId)}>
        clear
      </button>
    </span>
  );
}
