import { beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ANNOTATIONS } from '../../../shared/annotate/annotations';
import type { Profile } from '../../../shared/model/types';
import { buildViewTree } from '../../../shared/view/view-tree';
import { folded } from '../../../test/support/folded';
import { type El, parseXml } from '../../../test/support/svg-xml';
import { type ExportInput, type ExportPane, renderComparisonSvg } from './render-svg';

/** 40 frames deep on one side, 2 on the other: the tower a start-up phase makes. */
const DEEP = Array.from({ length: 40 }, (_, i) => `f${i}`);
let deep: Profile;
let shallow: Profile;

beforeAll(async () => {
  deep = await folded(`${DEEP.join(';')} 30\nmain;handler 70`, 'deep.folded');
  shallow = await folded('main;handler;route 60\nmain;gc 40', 'shallow.folded');
});

function input(profiles: Profile[], over: Partial<ExportInput> = {}): ExportInput {
  const panes: ExportPane[] = profiles.map((p, i) => ({
    runId: `r${i}`,
    title: `run ${i}`,
    facts: ['folded', 'samples'],
    tree: buildViewTree(p, { focus: [], minFraction: 1 / 1200, rootName: `run ${i}` }),
    fill: () => '#cccccc',
  }));
  return {
    panes,
    layout: 'rows',
    orientation: 'flame',
    width: 1280,
    legends: [{ title: 'Frames', entries: [{ label: 'app', color: '#ff0000' }] }],
    annotations: EMPTY_ANNOTATIONS,
    date: '2026-01-02 03:04',
    ...over,
  };
}

/** The elements inside each pane group, pane by pane. */
function byPane(els: El[]): El[][] {
  const panes: El[][] = [];
  for (const e of els) {
    if (e.name === 'g' && e.attrs.class === 'pane') panes.push([]);
    else if (e.path.includes('pane')) panes.at(-1)!.push(e);
  }
  return panes;
}

describe('a picture of fixed size', () => {
  it('is exactly as tall as asked, and cuts the deep stack with a marker saying how many frames are not drawn', () => {
    const out = renderComparisonSvg(input([deep, deep, deep, deep, deep], { height: 720 }));
    expect([out.width, out.height]).toEqual([1280, 720]);
    expect(out.svg).toContain('width="1280" height="720" viewBox="0 0 1280 720"');
    const panes = byPane(parseXml(out.svg));
    expect(panes).toHaveLength(5);
    for (const els of panes) {
      // the tower's frames drawn, and the marker's count: together the stack's 40 frames
      const drawn = els.filter((e) => e.path.at(-1) === 'frames' && e.name === 'text' && /^f\d+$/.test(e.text)).length;
      const marker = els.find((e) => e.path.at(-1) === 'cut-markers' && e.name === 'text')!;
      const cut = Number(/^… (\d+) deeper frames$/.exec(marker.text)![1]);
      expect(drawn).toBeGreaterThanOrEqual(6); // at least 8 rows: the root, 6 or more of the tower, the marker
      expect(drawn + cut).toBe(DEEP.length);
    }
    // five panes 41 rows deep do not fit one under the other in 720 px: they go side by side
    const xs = new Set(parseXml(out.svg).flatMap((e) => (e.attrs.class === 'pane' ? [e.attrs.transform!.split(',')[0]] : [])));
    expect(xs.size).toBeGreaterThan(1);
  });

  it('draws shallow trees whole, one pane under another, at its fixed height', () => {
    const out = renderComparisonSvg(input([shallow, shallow], { width: 794, height: 1123 }));
    expect([out.width, out.height]).toEqual([794, 1123]);
    expect(out.svg).not.toContain('cut-markers');
    const xs = new Set(parseXml(out.svg).flatMap((e) => (e.attrs.class === 'pane' ? [e.attrs.transform!.split(',')[0]] : [])));
    expect(xs.size).toBe(1);
  });

  it('with a most height, is as tall as its content needs up to it', () => {
    const small = renderComparisonSvg(input([shallow, shallow], { width: 800, maxHeight: 1333 }));
    expect(small.height).toBeLessThan(1333);
    const tall = renderComparisonSvg(input([deep, deep, deep, deep, deep, deep], { width: 800, maxHeight: 1333 }));
    expect(tall.height).toBeLessThanOrEqual(1333);
    expect(tall.height).toBeGreaterThan(1200);
    expect(tall.svg).toContain('cut-markers');
    // as the app lays it out, the same comparison is far taller
    expect(renderComparisonSvg(input([deep, deep, deep, deep, deep, deep], { width: 800 })).height).toBeGreaterThan(2 * 1333);
  });

  it('names every run in its header with its figures', () => {
    const out = renderComparisonSvg(
      input([shallow, deep], {
        height: 720,
        summary: [
          { title: 'baseline', baseline: true, figures: ['618 ms busy CPU'] },
          { title: 'dd-trace', figures: ['2.2 s busy CPU', 'Datadog (dd-trace): 80.7% of busy CPU'] },
          { title: 'baseline/perf.script.txt', baseline: true, baselineOf: 'perf-script', figures: ['465 ms busy CPU'] },
        ],
      }),
    );
    const header = parseXml(out.svg).filter((e) => e.path.at(-1) === 'summary' && e.name === 'text');
    expect(header.map((e) => e.text)).toEqual([
      'baseline (baseline) · 618 ms busy CPU',
      'dd-trace · 2.2 s busy CPU · Datadog (dd-trace): 80.7% of busy CPU',
      // the baseline of another format than the baseline's (shared/runs/kind-baselines) says which
      'baseline/perf.script.txt (baseline · perf-script) · 465 ms busy CPU',
    ]);
  });

  it('says in words a note whose frame the cut leaves out, within the same height', () => {
    const keys = DEEP.slice(0, 31).map((name) => deep.frames.key[deep.frames.name.indexOf(name)]!);
    const doc = {
      ...EMPTY_ANNOTATIONS,
      items: [
        { id: 'n1', kind: 'note' as const, text: 'deep in the tower', anchor: { keyPath: keys }, createdAt: 0 },
        { id: 'n2', kind: 'note' as const, text: 'at its foot', anchor: { keyPath: keys.slice(0, 2) }, createdAt: 0 },
      ],
    };
    const out = renderComparisonSvg(input([deep, deep, deep], { height: 720, annotations: doc }));
    expect(out.height).toBe(720);
    const texts = parseXml(out.svg).map((e) => e.text);
    expect(texts).toContain('• f30: deep in the tower');
    expect(texts.filter((t) => t === 'at its foot')).toHaveLength(3);
    // the list is inside the picture: its last line is above the bottom margin
    const last = parseXml(out.svg).find((e) => e.text === '• f30: deep in the tower')!;
    expect(Number(last.attrs.y)).toBeLessThan(720 - 8);
  });
});
