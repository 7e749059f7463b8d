import { beforeAll, describe, expect, it } from 'vitest';
import { type AnnotationDoc, EMPTY_ANNOTATIONS } from '../../../shared/annotate/annotations';
import type { Profile } from '../../../shared/model/types';
import { folded } from '../../../test/support/folded';
import { type ViewTree, buildViewTree } from '../../../shared/view/view-tree';
import { type ExportInput, type ExportPane, exportChartWidth, renderComparisonSvg } from './render-svg';
import { esc, fitText, svgColor, wrapParts, wrapText } from './svg-text';
import { parseXml, unescape } from '../../../test/support/svg-xml';

let base: Profile;
let agent: Profile;

beforeAll(async () => {
  base = await folded('main;handler;route 60\nmain;handler;json 20\nmain;gc 20', 'base.folded');
  agent = await folded(
    'main;handler;route 55\nmain;handler;<dd-trace> & "wrap" 30\nmain;handler;json 20\nmain;gc 20\nmain;bad\u0001name 50',
    'agent.folded',
  );
});

const tree = (p: Profile, width: number, focus: string[] = []): ViewTree =>
  buildViewTree(p, { focus, minFraction: 1 / width, rootName: p.name });
const keyOf = (p: Profile, name: string) => p.frames.key[p.frames.name.indexOf(name)]!;

function input(overrides: Partial<ExportInput> = {}, annotations: AnnotationDoc = EMPTY_ANNOTATIONS): ExportInput {
  const layout = overrides.layout ?? 'rows';
  const width = overrides.width ?? 1200;
  const cw = exportChartWidth(width, layout, 2);
  const pane = (p: Profile, runId: string, extra: Partial<ExportPane>): ExportPane => ({
    runId,
    title: p.name,
    facts: ['folded', 'samples', `${p.tree.total[0]} samples`],
    tree: tree(p, cw),
    fill: (n) => (n.key === '' ? '#dddddd' : 'hsl(14 80% 58%)'),
    ...extra,
  });
  return {
    panes: [
      pane(base, 'r1', { baseline: true }),
      pane(agent, 'r2', { readouts: ['+30% CPU time vs baseline', 'matches own 23.3% inclusive'] }),
    ],
    layout,
    orientation: 'flame',
    width,
    legends: [
      {
        title: 'Change',
        entries: [
          { label: 'wider than baseline', color: 'rgb(215,25,28)' },
          { label: 'new (not in baseline)', color: '#a855f7' },
        ],
        note: 'relative: shares of each run',
      },
      { title: 'Search', entries: [{ label: 'matches "dd-trace"', color: '#e600e6' }] },
    ],
    annotations,
    date: new Date(2026, 0, 2, 3, 4),
    ...overrides,
  };
}

describe('comparison SVG', () => {
  it('is well-formed, self-contained and has a rect per view node', () => {
    const inp = input();
    const out = renderComparisonSvg(inp);
    expect(out.width).toBe(1200);
    expect(out.svg).toContain(`width="1200" height="${out.height}"`);
    const els = parseXml(out.svg);
    expect(els[0]!.name).toBe('svg');
    expect(out.svg).not.toMatch(/href|url\(|@import|<image|<script|<foreignObject/i);
    const frameRects = els.filter((e) => e.name === 'rect' && e.path.at(-1) === 'frames');
    expect(frameRects.length).toBe(inp.panes[0]!.tree.nodeCount + inp.panes[1]!.tree.nodeCount);
    // colours converted to #rrggbb for SVG 1.1 viewers
    expect(new Set(frameRects.map((r) => r.attrs.fill))).toEqual(new Set(['#dddddd', svgColor('hsl(14 80% 58%)')]));
    const texts = els.filter((e) => e.name === 'text').map((e) => unescape(e.text));
    for (const t of [
      'Profile comparison',
      'base.folded — baseline',
      'agent.folded',
      '+30% CPU time vs baseline',
      'matches own 23.3% inclusive',
      'Change',
      'wider than baseline',
      'Search',
      'matches "dd-trace"',
      'Exported 2026-01-02 03:04',
    ])
      expect(texts).toContain(t);
    expect(texts.some((t) => t.startsWith('folded · samples · 100 samples'))).toBe(true);
  });

  it("names the baseline of another format than the baseline's in its pane's title", () => {
    const inp = input();
    inp.panes[1] = { ...inp.panes[1]!, baseline: true, baselineOf: 'perf-script', readouts: [] };
    const texts = parseXml(renderComparisonSvg(inp).svg)
      .filter((e) => e.name === 'text')
      .map((e) => unescape(e.text));
    expect(texts).toContain('base.folded — baseline');
    expect(texts).toContain('agent.folded — baseline · perf-script');
  });

  it('escapes frame names and drops characters XML forbids', () => {
    const out = renderComparisonSvg(input());
    expect(out.svg).toContain('&lt;dd-trace&gt; &amp; &quot;wrap&quot;');
    expect(out.svg).not.toContain('\u0001');
    const texts = parseXml(out.svg).map((e) => unescape(e.text));
    expect(texts).toContain('<dd-trace> & "wrap"');
    // importers show a control character as an escape (shared/model/visible-text.ts)
    expect(texts).toContain('bad\\x01name');
  });

  it('draws notes on the frame in every pane, pane-only notes and boxes where they belong', () => {
    const doc: AnnotationDoc = {
      title: 'dd-trace <costs> 30%',
      caption: 'Fastify hello world under autocannon, 30 s per run.',
      items: [
        {
          id: 'a1',
          kind: 'note',
          text: 'request handler',
          anchor: { keyPath: [keyOf(base, 'main'), keyOf(base, 'handler')] },
          createdAt: 0,
        },
        {
          id: 'a2',
          kind: 'note',
          text: 'agent wrapper & hooks',
          anchor: { keyPath: ['main', 'handler', '<dd-trace> & "wrap"'].map((k) => keyOf(agent, k)) },
          runId: 'r2',
          createdAt: 0,
        },
        { id: 'a3', kind: 'box', text: 'GC', anchor: { region: { x: 0.8, y: 0.5, w: 0.2, h: 0.5 } }, runId: 'r1', createdAt: 0 },
        {
          id: 'a4',
          kind: 'note',
          text: 'only in a pane not exported',
          anchor: { keyPath: [keyOf(base, 'main')] },
          runId: 'r9',
          createdAt: 0,
        },
        { id: 'a5', kind: 'note', text: 'gone at this zoom', anchor: { keyPath: ['nowhere\tx.js'] }, createdAt: 0 },
      ],
    };
    const out = renderComparisonSvg(input({}, doc));
    const els = parseXml(out.svg);
    const texts = els.map((e) => unescape(e.text));
    expect(texts).toContain('dd-trace <costs> 30%');
    expect(texts).toContain('Fastify hello world under autocannon, 30 s per run.');
    expect(texts.filter((t) => t === 'request handler')).toHaveLength(2);
    expect(texts.filter((t) => t === 'agent wrapper & hooks')).toHaveLength(1);
    expect(texts.filter((t) => t === 'GC')).toHaveLength(1);
    expect(texts.some((t) => t.includes('only in a pane not exported'))).toBe(false);
    expect(texts).toContain('Notes on frames not in view:');
    expect(texts).toContain('• nowhere: gone at this zoom');
    const panes = els.filter((e) => e.name === 'g' && e.attrs.class === 'pane');
    expect(panes).toHaveLength(2);
    const annotated = els.filter((e) => e.path.includes('annotations'));
    expect(annotated.filter((e) => e.attrs['stroke-dasharray'])).toHaveLength(1);
  });

  it('draws the ancestors of a deep focus as one row naming them, as the panes do', async () => {
    const focus = [keyOf(agent, 'main'), keyOf(agent, 'handler'), keyOf(agent, 'route')];
    const inp = input();
    for (const p of inp.panes) p.tree = tree(p.runId === 'r1' ? base : agent, 1000, focus);
    const texts = parseXml(renderComparisonSvg(inp).svg).map((e) => unescape(e.text));
    expect(texts.filter((t) => t === 'main › handler')).toHaveLength(2);
    expect(texts.filter((t) => t === 'route')).toHaveLength(2);
    // A chain too long for the row keeps its innermost names, the outer ones folded into '…'.
    const names = Array.from({ length: 16 }, (_, i) => `frame_number_${i}`);
    const deep = await folded(`${names.join(';')};leaf 5`, 'deep.folded');
    const one = input({ width: 600 });
    one.panes = [
      {
        ...one.panes[0]!,
        tree: tree(
          deep,
          600,
          names.map((k) => keyOf(deep, k)),
        ),
      },
    ];
    const row = parseXml(renderComparisonSvg(one).svg)
      .map((e) => unescape(e.text))
      .find((t) => t.includes(' › '))!;
    expect(row.startsWith('… › ')).toBe(true);
    expect(row.endsWith('frame_number_14')).toBe(true);
  });

  it('keeps a note on its function when zoomed in', () => {
    const focus = [keyOf(agent, 'main'), keyOf(agent, 'handler')];
    const inp = input();
    for (const p of inp.panes) p.tree = tree(p.runId === 'r1' ? base : agent, 1000, focus);
    inp.focusPath = ['main', 'handler'];
    inp.annotations = {
      ...EMPTY_ANNOTATIONS,
      items: [{ id: 'a1', kind: 'note', text: 'json!', anchor: { keyPath: [...focus, keyOf(agent, 'json')] }, createdAt: 0 }],
    };
    const texts = parseXml(renderComparisonSvg(inp).svg).map((e) => unescape(e.text));
    expect(texts.filter((t) => t === 'json!')).toHaveLength(2);
    expect(texts).toContain('Zoomed to: all › main › handler');
  });

  it('lays panes out in columns side by side, icicle or flame', () => {
    const rows = renderComparisonSvg(input({ layout: 'rows' }));
    const cols = renderComparisonSvg(input({ layout: 'columns', orientation: 'icicle' }));
    expect(cols.height).toBeLessThan(rows.height);
    const translates = parseXml(cols.svg)
      .filter((e) => e.attrs.class === 'pane')
      .map((e) => /translate\(([\d.]+),([\d.]+)\)/.exec(e.attrs.transform!)!.slice(1).map(Number));
    expect(translates[0]![1]).toBe(translates[1]![1]);
    expect(translates[1]![0]).toBeGreaterThan(translates[0]![0]! + exportChartWidth(1200, 'columns', 2));
    // icicle: the root row is at the top of the chart; flame: at the bottom
    const rootY = (svg: string) => Number(parseXml(svg).find((e) => e.name === 'rect' && e.path.at(-1) === 'frames')!.attrs.y);
    expect(rootY(cols.svg)).toBe(0);
    expect(rootY(rows.svg)).toBeGreaterThan(0);
  });

  it('writes labels in white on dark frames', () => {
    const inp = input();
    for (const p of inp.panes) p.fill = (v) => (v.name === 'handler' ? '#000000' : '#eeeeee');
    const labels = parseXml(renderComparisonSvg(inp).svg).filter((e) => e.name === 'text' && e.path.at(-1) === 'frames');
    expect(labels.filter((e) => e.text === 'handler').map((e) => e.attrs.fill)).toEqual(['#ffffff', '#ffffff']);
    expect(labels.find((e) => e.text === 'main')!.attrs.fill).toBeUndefined();
  });

  it('cuts very deep trees and says so', () => {
    const out = renderComparisonSvg(input({ maxRows: 2 }));
    const texts = parseXml(out.svg).map((e) => e.text);
    expect(texts).toContain('Deeper frames are not drawn.');
  });
});

describe('svg text helpers', () => {
  it('escapes, fits and wraps', () => {
    expect(esc(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&#39;');
    expect(esc('x\u0000\uD800y')).toBe('x\uFFFD\uFFFDy');
    expect(esc('😀')).toBe('😀');
    expect(fitText('handler', 1000, 11)).toBe('handler');
    expect(fitText('handlerFunction', 40, 11)).toMatch(/^han.*…$/);
    expect(fitText('handler', 10, 11)).toBe('');
    const lines = wrapText('the quick brown fox jumps over the lazy dog', 60, 10);
    expect(lines.join(' ')).toBe('the quick brown fox jumps over the lazy dog');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(10);
    expect(wrapText('a b c d e f g h', 18, 10, 2)).toEqual(['a b', 'c …']);
    // parts stay whole where they fit a line
    expect(wrapParts(['dd-trace', '2.2 s busy CPU', 'agent: 80.7% of busy CPU'], 40 * 6, 10)).toEqual([
      'dd-trace · 2.2 s busy CPU ·',
      'agent: 80.7% of busy CPU',
    ]);
    expect(wrapParts(['a', 'b'], 100, 10)).toEqual(['a · b']);
  });

  it('converts the app’s colours to hex', () => {
    expect(svgColor('hsl(0 0% 100%)')).toBe('#ffffff');
    expect(svgColor('hsl(120.0 100.0% 25.0%)')).toBe('#008000');
    expect(svgColor('rgb(215,25,28)')).toBe('#d7191c');
    expect(svgColor('#abc')).toBe('#aabbcc');
    expect(svgColor('rebeccapurple')).toBe('rebeccapurple');
  });
});
