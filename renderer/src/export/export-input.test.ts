import { beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ANNOTATIONS } from '../../../shared/annotate/annotations';
import type { Profile } from '../../../shared/model/types';
import type { ViewNode } from '../../../shared/view/view-tree';
import { folded } from '../../../test/support/folded';
import { AGENT_PRESETS } from '../../../shared/search/agents';
import { weighByDefault } from '../../../shared/model/weigh';
import { load } from '../../../test/support/cpuprofile';
import { rawDurations, rawOnStack, readV8Profiles } from '../../../test/support/v8-raw';

const SAMPLE = 'assets/samples/dd-trace.cpuprofile';
import { repeatStatisticsLoaded } from '../store/derived-repeats';
import { type ExportState, buildExportInput } from './export-input';
import { renderComparisonSvg } from './render-svg';

const AGENT = 'main;handler;route 60\nmain;handler;dd-trace-wrap 40\nmain;handler;json 20\nmain;gc 20';

/** Samples of the folded text whose stack has a frame containing `text`, and all of them. */
function countFolded(folded: string, text: string): { matched: number; all: number } {
  let matched = 0;
  let all = 0;
  for (const line of folded.split('\n')) {
    const [stack, count] = line.split(' ');
    all += Number(count);
    if (stack!.split(';').some((f) => f.includes(text))) matched += Number(count);
  }
  return { matched, all };
}

let base: Profile;
let agent: Profile;

beforeAll(async () => {
  base = await folded('main;handler;route 60\nmain;handler;json 20\nmain;gc 20', 'base.folded');
  agent = await folded(AGENT, 'agent.folded');
});

function state(over: Partial<ExportState> = {}): ExportState {
  return {
    runs: [
      { id: 'r1', title: 'baseline', fileName: 'base.folded', status: 'ready', profile: base },
      { id: 'r2', title: 'dd-trace', fileName: 'agent.folded', status: 'ready', profile: agent },
      { id: 'r3', title: 'broken', fileName: 'x.folded', status: 'error', error: 'nope' },
    ],
    baselineId: 'r1',
    focus: [],
    layout: 'rows',
    orientation: 'flame',
    sort: 'name',
    palette: 'default',
    query: 'dd-trace',
    filterMode: 'highlight',
    diffView: 'off',
    normalize: 'relative',
    diffMeasure: 'total',
    noisePercent: 0.1,
    matchEntry: true,
    ranges: {},
    customPresets: [],
    ...over,
  };
}

describe('export input from the store', () => {
  it('says which total a figure is of when a run has idle samples', async () => {
    const idle = await folded('main;handler;route 60\nmain;handler;dd-trace-wrap 40\n(idle) 100', 'idle.folded');
    const runs = [state().runs[0]!, { id: 'r2', title: 'dd-trace', fileName: 'idle.folded', status: 'ready' as const, profile: idle }];
    const inp = buildExportInput(state({ runs }), EMPTY_ANNOTATIONS, { width: 1000, date: new Date(0) });
    expect(inp.panes[1]!.facts).toEqual(['folded', 'samples', '200 samples in all', '100 samples busy CPU']);
    // 40 of the 100 busy samples, not of all 200; the cost compares busy totals, 100 against 100
    expect(inp.panes[1]!.readouts).toEqual([
      '±0.0% CPU time vs baseline (idle left out)',
      '“dd-trace” owns 40% inclusive, 40% self of busy CPU · +40 pp vs baseline',
    ]);
  });

  it('has every ready run with its facts, cost headline and search share', () => {
    const inp = buildExportInput(state(), EMPTY_ANNOTATIONS, { width: 1000, date: new Date(0) });
    expect(inp.panes.map((p) => [p.runId, p.baseline])).toEqual([
      ['r1', true],
      ['r2', false],
    ]);
    expect(inp.panes[0]!.facts).toEqual(['folded', 'samples', '100 samples']);
    expect(inp.panes[1]!.readouts).toEqual([
      '+40% CPU time vs baseline',
      '“dd-trace” owns 28.6% inclusive, 28.6% self of busy CPU · +28.6 pp vs baseline',
    ]);
    expect(inp.legends.map((l) => l.title)).toEqual(['Frames', 'Search']);
    // search matches drawn in the match colour
    const find = (n: ViewNode, name: string): ViewNode | undefined =>
      n.name === name ? n : n.children?.map((c) => find(c, name)).find((x) => x);
    const wrap = find(inp.panes[1]!.tree.root, 'dd-trace-wrap')!;
    expect(inp.panes[1]!.fill(wrap)).toBe('#e600e6');
  });

  it('colours by change in the diff view and names the focus path', () => {
    const focus = [agent.frames.key[0]!, agent.frames.key[1]!];
    const inp = buildExportInput(state({ diffView: 'diff', query: '', focus }), EMPTY_ANNOTATIONS, { width: 1000 });
    expect(inp.legends.map((l) => l.title)).toEqual(['Change']);
    expect(inp.focusPath).toEqual(['main', 'handler']);
    expect(inp.panes[1]!.facts).toContain('coloured by change against the baseline');
    const svg = renderComparisonSvg(inp).svg;
    expect(svg).toContain('Zoomed to: all › main › handler');
    expect(svg).toContain('new (not in baseline)');
  });

  it("puts the legend's meaning of red and blue, and the noise threshold's, in the picture", () => {
    const abs = buildExportInput(state({ diffView: 'diff', query: '', normalize: 'absolute' }), EMPTY_ANNOTATIONS, { width: 1000 });
    expect(abs.legends[0]!.entries.map((e) => e.label).slice(0, 2)).toEqual([
      'more time than the baseline spent here',
      'less time than the baseline spent here',
    ]);
    expect(abs.legends[0]!.note).toMatch(/noise: within 0\.1% of the baseline's total/);
    const svg = renderComparisonSvg(abs).svg;
    expect(svg).toContain('more time than the baseline spent here');
    const rel = buildExportInput(state({ diffView: 'diff', query: '', normalize: 'relative' }), EMPTY_ANNOTATIONS, { width: 1000 });
    expect(rel.legends[0]!.entries[0]!.label).toBe('larger share of the run than in the baseline');
    expect(rel.legends[0]!.note).toMatch(/percentage points; noise: within 0\.1 pp/);
  });

  it("names each run in the header with its total and the search's share in words, by the filter's name", () => {
    const customPresets = [{ id: 'custom:wrap', label: 'Agent wrapper', query: 'dd-trace' }];
    const inp = buildExportInput(state({ customPresets }), EMPTY_ANNOTATIONS, { width: 800, date: new Date(0) });
    const { matched, all } = countFolded(AGENT, 'dd-trace');
    const percent = `${((matched / all) * 100).toFixed(1)}%`;
    expect(inp.summary).toEqual([
      { title: 'baseline', baseline: true, figures: ['100 samples busy CPU', 'Agent wrapper: 0% of busy CPU'] },
      { title: 'dd-trace', figures: [`${all} samples busy CPU`, '+40% CPU time vs baseline', `Agent wrapper: ${percent} of busy CPU`] },
    ]);
    expect(inp.legends[1]!.entries[0]!.label).toBe('Agent wrapper');
    expect(inp.panes[1]!.readouts![1]).toMatch(/^Agent wrapper owns /);
    // an agent filter's regex is shown by its name
    const dd = buildExportInput(state({ query: AGENT_PRESETS[0]!.query }), EMPTY_ANNOTATIONS, { width: 800 });
    expect(dd.summary![1]!.figures.at(-1)).toBe('Datadog (dd-trace): 0% of busy CPU');
    expect(renderComparisonSvg(dd).svg).not.toContain('node_modules');
  });

  it('draws only the stacks with matches across the whole width when asked', () => {
    const inp = buildExportInput(state(), EMPTY_ANNOTATIONS, { width: 800, onlyMatches: true });
    const root = inp.panes[1]!.tree.root;
    expect(root.value).toBe(countFolded(AGENT, 'dd-trace').matched);
    const names: string[] = [];
    const walk = (n: ViewNode) => (names.push(n.name), n.children?.forEach(walk));
    root.children?.forEach(walk);
    expect(names).toEqual(['main', 'handler', 'dd-trace-wrap']);
    // the baseline has no match: nothing of it is drawn
    expect(inp.panes[0]!.tree.root.children ?? []).toEqual([]);
    expect(inp.legends[1]!.note).toBe('only stacks with frames matching “dd-trace”');
    // and as the app shows it without the option
    expect(buildExportInput(state(), EMPTY_ANNOTATIONS, { width: 800 }).panes[1]!.tree.root.value).toBe(countFolded(AGENT, '').all);
  });

  it("says in a run's header line when its figures are of a time range, with the samples it holds", async () => {
    const run = weighByDefault(await load(SAMPLE, 'dd-trace.cpuprofile'));
    // the busy samples in the second second of the run, and the part of their time with dd-trace on the stack
    const raw = readV8Profiles(SAMPLE)[0]!;
    const t0 = raw.times[0]! / 1e6 + 1;
    const w = rawDurations(raw);
    let inRange = 0;
    let busy = 0;
    let agentTime = 0;
    raw.ids.forEach((id, i) => {
      const t = raw.times[i]! / 1e6;
      if (t < t0 || t >= t0 + 1 || raw.nodes.get(id)!.functionName === '(idle)') return;
      inRange++;
      busy += w[i]!;
      if (rawOnStack(raw, id, (n) => n.url.includes('dd-trace') || n.functionName.includes('dd-trace'))) agentTime += w[i]!;
    });
    const runs = [
      state().runs[0]!,
      { id: 'r2', title: 'dd-trace', fileName: 'dd-trace.cpuprofile', status: 'ready' as const, profile: run },
    ];
    const inp = buildExportInput(state({ runs, ranges: { r2: { start: t0, end: t0 + 1 } } }), EMPTY_ANNOTATIONS, { width: 800 });
    expect(inRange).toBeGreaterThan(100);
    expect(inp.summary![1]!.figures).toEqual([
      '2.2 s busy CPU',
      `time range: ${inRange.toLocaleString('en-US')} samples`,
      `“dd-trace”: ${((agentTime / busy) * 100).toFixed(1)}% of busy CPU`,
    ]);
    expect(inp.summary![0]!.figures.some((f) => f.startsWith('time range'))).toBe(false);
  });
});

describe('an export of runs of repeats', () => {
  // (runs of repeats enter the store once their statistics' code has loaded)
  beforeAll(() => repeatStatisticsLoaded());

  it('colours and states the changes as the panes do: noise uncoloured, the cost with its ±, the legend with the runs', async () => {
    const { meanProfile } = await import('../../../shared/model/mean');
    const { random, repeat } = await import('../../../test/support/repeats');
    const variant = async (seed: number, plan: { factor?: Record<number, number> } = {}) => {
      const rng = random(seed);
      const profiles = await Promise.all(Array.from({ length: 5 }, () => folded(repeat(rng, plan))));
      return { profiles, names: profiles.map((_, i) => `${i}.folded`), failed: [], mean: meanProfile('v', profiles) };
    };
    const b = await variant(1);
    const r = await variant(2, { factor: { 3: 1.3 } });
    const inp = buildExportInput(
      state({
        runs: [
          { id: 'r1', title: 'baseline', fileName: 'b', status: 'ready', profile: b.mean, repeats: b },
          { id: 'r2', title: 'agent', fileName: 'a', status: 'ready', profile: r.mean, repeats: r },
        ],
        query: '',
        diffView: 'diff',
        normalize: 'absolute',
        diffMeasure: 'self',
      }),
      EMPTY_ANNOTATIONS,
      { width: 1200 },
    );
    const legend = inp.legends[0]!;
    expect(legend.entries.at(-1)!.label).toBe('unchanged, or within noise (5 runs each)');
    expect(legend.note).toMatch(/Welch's t/);
    expect(inp.panes[1]!.readouts?.[0]).toMatch(/^[+−]\d+(\.\d)?% ± \d+(\.\d)?% CPU time vs baseline, 95% interval over 5 runs each$/);
    const pane = inp.panes[1]!;
    const fills = new Map<string, string>();
    const walk = (n: ViewNode) => {
      if (n.key !== '') fills.set(n.name, pane.fill(n));
      n.children?.forEach(walk);
    };
    walk(pane.tree.root);
    const unchanged = fills.get('f10')!;
    expect(fills.get('f3')).not.toBe(unchanged);
    // every function but the one made 30% slower is within noise here: none of them red or blue
    expect([...fills].filter(([name, fill]) => name.startsWith('f') && name !== 'f3' && fill !== unchanged)).toEqual([]);
  });
});
