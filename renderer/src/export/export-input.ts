/**
 * What the comparison shows, collected from the store as `renderComparisonSvg` input: the same
 * view trees, colours, facts and legends as the panes on screen (PaneChart, PaneFacts, Legend),
 * but built at the export's width from state alone, so that export works whatever the window
 * shows — hidden, narrow or headless.
 */
import type { AnnotationDoc } from '../../../shared/annotate/annotations';
import { annotateView } from '../../../shared/diff/annotate-view';
import { formatChange } from '../../../shared/diff/diff-query';
import type { Profile } from '../../../shared/model/types';
import { totalNoun } from '../../../shared/search/busy';
import { AGENT_PRESETS } from '../../../shared/search/agents';
import type { ViewNode, ViewOptions } from '../../../shared/view/view-tree';
import { MATCH_COLOR, frameColor, legend } from '../comparison/colors';
import { formatDuration, formatPercent, formatPoints, formatWeight } from '../comparison/format';
import { REPEATS_NOTE, diffColor, diffLegend, diffLegendNote } from '../diff/diff-colors';
import { costPlusMinus, repeatsCount } from '../diff/repeats-format';
import { baselineKind, baselineRunOf } from '../store/compared-with';
import { beyondNoise, repeatsCounts, repeatsFor } from '../store/derived-repeats';
import { Status } from '../../../shared/diff/diff';
import { comparedProfile, diffFor, mergedFor, rangeFor, searchFor, totalsFor, viewTreeFor } from '../store/derived';
import type { AppState } from '../store/store';
import { type ExportInput, type ExportPane, type LegendGroup, type RunSummary, exportChartWidth } from './render-svg';

export type ExportState = Pick<
  AppState,
  | 'runs'
  | 'baselineId'
  | 'focus'
  | 'layout'
  | 'orientation'
  | 'sort'
  | 'palette'
  | 'query'
  | 'filterMode'
  | 'diffView'
  | 'normalize'
  | 'diffMeasure'
  | 'noisePercent'
  | 'matchEntry'
  | 'ranges'
  | 'customPresets'
>;

export interface ExportOptions {
  /** width of the picture in CSS pixels */
  width: number;
  date?: Date;
  /** draw only the stacks with a frame the search matches, laid out across the whole width */
  onlyMatches?: boolean;
  /** the picture's fixed height, or its most (see ExportInput) */
  height?: number;
  maxHeight?: number;
}

/** The search as people named it: the agent filter's or a saved filter's label, else the query as typed. */
export function searchLabel(s: Pick<ExportState, 'query' | 'customPresets'>): string {
  const q = s.query.trim();
  const preset = [...AGENT_PRESETS, ...s.customPresets].find((p) => p.query.trim() === q);
  return preset ? preset.label : `“${q}”`;
}

const DRAWN_LABEL: Record<string, string> = {
  diff: 'coloured by change against the baseline',
  removed: "the baseline's tree, coloured against this run",
  merged: 'merged tree of both runs',
};

function costWord(p: Profile): string {
  if (p.unit === 'bytes') return 'allocated bytes';
  if (p.unit === 'events') return 'events';
  if (p.kind === 'spans') return 'span time';
  return 'CPU time';
}

function focusNames(s: ExportState): string[] {
  return s.focus.map((key) => {
    for (const r of s.runs) {
      const i = r.profile?.frames.key.indexOf(key) ?? -1;
      if (i >= 0) return r.profile!.frames.name[i]!;
    }
    return key.split('\t')[0]!;
  });
}

type ReadyRun = ExportState['runs'][number];

/** `base`: the run this one is compared with (../store/compared-with), none for a baseline. */
function pane(s: ExportState, run: ReadyRun, base: ReadyRun | undefined, chartW: number, onlyMatches: boolean): ExportPane {
  const baseline = base?.profile;
  const profile = comparedProfile(run.profile!, baseline, s.matchEntry);
  // The same time ranges as on screen (each run's own, the baseline's for the baseline's tree).
  const rw = rangeFor(profile, s.ranges[run.id]);
  const baseRw = baseline ? rangeFor(baseline, s.ranges[base!.id]) : undefined;
  const diff = baseline ? diffFor(baseline, profile, s.normalize, s.noisePercent, baseRw, rw) : undefined;
  const d = diff?.diff;
  const diffOn = s.diffView !== 'off' && d !== undefined && baseline !== undefined;
  const [drawn, drawnRw] = !diffOn
    ? [profile, rw]
    : s.diffView === 'removed'
      ? [baseline, baseRw]
      : s.diffView === 'merged'
        ? [mergedFor(d, baseline, profile), undefined]
        : [profile, rw];
  const search = searchFor(drawn, s.query, onlyMatches ? 'only' : s.filterMode, drawnRw);
  const opts: ViewOptions = { focus: s.focus, sort: s.sort, minFraction: 1 / chartW, rootName: run.title };
  const totals = search.totals ?? drawnRw?.total;
  if (totals) opts.totals = totals;
  if (drawnRw) opts.self = drawnRw.self;
  if (search.matches) opts.matches = search.matches;
  const tree = viewTreeFor(drawn, opts);
  if (diffOn) annotateView(tree.root, d, diff!.index!, s.diffMeasure);
  const scale = diff?.maxDelta[s.diffMeasure] ?? 0;
  const matchColor = MATCH_COLOR[s.palette];
  // Where both sides are several repeats, a change within run-to-run noise is drawn as unchanged (as on screen).
  const repeats = baseline ? repeatsFor(base, run, s.normalize, s.diffMeasure, s.matchEntry) : undefined;
  const fill = (n: ViewNode) => {
    if (n.match && s.filterMode === 'highlight') return matchColor;
    const status = n.status !== Status.Moved && !beyondNoise(repeats, n.key) ? Status.Unchanged : n.status;
    if (diffOn && !n.context && n.key !== '') return diffColor(s.palette, status, n.delta, scale);
    return frameColor(s.palette, n.category, n.tier, n.key, n.context);
  };

  const runTotals = totalsFor(profile);
  const facts = [profile.format, profile.unit, `${formatWeight(runTotals.all, profile.unit)}${runTotals.idle > 0 ? ' in all' : ''}`];
  if (runTotals.idle > 0) facts.push(`${formatWeight(runTotals.busy, profile.unit)} busy CPU`);
  const { startTime, endTime } = profile.meta;
  if (startTime !== undefined && endTime !== undefined && endTime > startTime) facts.push(`${formatDuration(endTime - startTime)} long`);
  if (diffOn) facts.push(DRAWN_LABEL[s.diffView]!);
  const readouts: string[] = [];
  const against = base && base.id !== s.baselineId ? base.title : 'baseline';
  if (d)
    readouts.push(
      `${formatChange(d.change)}${repeats ? costPlusMinus(repeats.stats.total) : ''} ${costWord(profile)} vs ${against}` +
        `${d.baseline.idle + d.run.idle > 0 ? ' (idle left out)' : ''}` +
        `${repeats ? `, 95% interval over ${repeatsCount(repeats.stats.repeats)}` : ''}`,
    );
  if (diff?.error) readouts.push(diff.error);
  // The share read-out is of the run itself, whatever the pane draws (as on screen).
  const own = searchFor(profile, s.query, s.filterMode, rw).share;
  const baseShare = baseline ? searchFor(baseline, s.query, s.filterMode, baseRw).share : undefined;
  if (rw) facts.push(`time range: ${rw.sampleCount.toLocaleString('en-US')} samples`);
  if (own) {
    const vs = baseShare ? ` · ${formatPoints((own.inclusive - baseShare.inclusive) * 100)} vs ${against}` : '';
    readouts.push(
      `${searchLabel(s)} owns ${formatPercent(own.inclusive)} inclusive, ${formatPercent(own.self)} self of ${totalNoun(profile)}${vs}`,
    );
  }
  const kind = baselineKind(s, run.id);
  const out: ExportPane = { runId: run.id, title: run.title, baseline: kind !== undefined, facts, readouts, tree, fill };
  if (kind === 'format') out.baselineOf = run.profile!.format;
  if (tree.focusDepth < s.focus.length) out.note = 'This run does not have the full focused path; showing its deepest matching frame.';
  return out;
}

function legends(s: ExportState, onlyMatches: boolean): LegendGroup[] {
  const unit = s.runs.find((r) => r.id === s.baselineId)?.profile?.unit;
  const counts = s.diffView !== 'off' ? repeatsCounts(s.runs, s.baselineId, s.normalize, s.diffMeasure, s.matchEntry) : undefined;
  const groups: LegendGroup[] =
    s.diffView !== 'off'
      ? [
          {
            title: 'Change',
            entries: diffLegend(s.palette, s.normalize, unit, counts),
            note: `${diffLegendNote(s.normalize, s.noisePercent)}${counts ? `. ${REPEATS_NOTE}` : ''}`,
          },
        ]
      : [
          {
            title: 'Frames',
            entries: legend(s.palette).map((e) => ({ label: e.name, color: e.color })),
            note: 'paler: interpreted (not yet optimized) code',
          },
        ];
  if (s.query.trim() !== '') {
    const label = searchLabel(s);
    const note =
      onlyMatches || s.filterMode === 'only' ? `only stacks with frames matching ${label}` : `stacks with frames matching ${label} hidden`;
    if (s.filterMode === 'highlight')
      groups.push({ title: 'Search', entries: [{ label, color: MATCH_COLOR[s.palette] }], ...(onlyMatches ? { note } : {}) });
    else groups.push({ title: 'Search', entries: [], note });
  }
  return groups;
}

/** A run's line in the picture's header: its total, its cost against the baseline, the search's share in words. */
function summary(s: ExportState, run: ReadyRun, base: ReadyRun | undefined): RunSummary {
  const baseline = base?.profile;
  const profile = comparedProfile(run.profile!, baseline, s.matchEntry);
  const totals = totalsFor(profile);
  const noun = totalNoun(profile);
  const figures = [noun === 'busy CPU' ? `${formatWeight(totals.busy, profile.unit)} busy CPU` : formatWeight(totals.all, profile.unit)];
  const rw = rangeFor(profile, s.ranges[run.id]);
  if (rw) figures.push(`time range: ${rw.sampleCount.toLocaleString('en-US')} samples`);
  if (baseline) {
    const baseRw = rangeFor(baseline, s.ranges[base!.id]);
    const d = diffFor(baseline, profile, s.normalize, s.noisePercent, baseRw, rw).diff;
    if (d) figures.push(`${formatChange(d.change)} ${costWord(profile)} vs ${base!.id === s.baselineId ? 'baseline' : base!.title}`);
  }
  // The same share the pane states (searchFor of the run in its range), in words.
  const share = searchFor(profile, s.query, s.filterMode, rw).share;
  if (share) figures.push(`${searchLabel(s)}: ${formatPercent(share.inclusive)} of ${noun}`);
  const out: RunSummary = { title: run.title, figures };
  const kind = baselineKind(s, run.id);
  if (kind) out.baseline = true;
  if (kind === 'format') out.baselineOf = run.profile!.format;
  return out;
}

/** The export of the comparison as it stands: every ready run, at `opts.width` CSS pixels. */
export function buildExportInput(s: ExportState, annotations: AnnotationDoc, opts: ExportOptions): ExportInput {
  const ready = s.runs.filter((r) => r.status === 'ready' && r.profile);
  const fitted = opts.height !== undefined || opts.maxHeight !== undefined;
  // A fitted picture may put panes side by side; trees built for one column are fine for any.
  const chartW = exportChartWidth(opts.width, fitted ? 'rows' : s.layout, ready.length);
  const onlyMatches = !!opts.onlyMatches && s.query.trim() !== '';
  const baseOf = (r: ReadyRun) => {
    const base = baselineRunOf(s, r.id);
    return base?.status === 'ready' && base.profile ? base : undefined;
  };
  const input: ExportInput = {
    panes: ready.map((r) => pane(s, r, baseOf(r), chartW, onlyMatches)),
    layout: s.layout,
    orientation: s.orientation,
    width: opts.width,
    legends: legends(s, onlyMatches),
    annotations,
    date: opts.date ?? new Date(),
    focusPath: focusNames(s),
    summary: ready.map((r) => summary(s, r, baseOf(r))),
  };
  if (opts.height !== undefined) input.height = opts.height;
  if (opts.maxHeight !== undefined) input.maxHeight = opts.maxHeight;
  return input;
}
