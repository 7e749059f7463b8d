/**
 * An imperative wrapper around d3-flame-graph for one pane. The renderer owns zoom: a click
 * reports the clicked frame's key path and the store refocuses every pane, each of which then
 * hands this chart a freshly pruned view tree. Hover highlighting is applied here directly, so
 * that mouse movement never re-renders React.
 */
import flamegraph, { type FlameGraph, type FlameNode } from 'd3-flame-graph';
import { select } from 'd3-selection';
import { type ViewNode, viewKeyPath } from '../../../shared/view/view-tree';
import { CRUMB_MORE, CRUMB_SEPARATOR, LABEL_PAD, fitCrumbs, fitLabel } from './label-fit';

export interface FlameChartHandlers {
  /** a frame was clicked: its key path from the root */
  onFocus(path: string[]): void;
  /** the pointer is over a frame (or left the chart: null) */
  onHover(node: FlameNode<ViewNode> | null, ev?: MouseEvent): void;
  /** a frame was right-clicked (to annotate it) */
  onContext(path: string[], name: string): void;
}

/** A box's place in the chart's drawing, in pixels. */
export interface BoxRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const CELL_HEIGHT = 18;

/** Cancels the d3 transitions scheduled on a selection (d3-transition adds `interrupt`). */
function interrupt(sel: unknown): void {
  (sel as { interrupt?: () => void }).interrupt?.();
}

/** Key path of a drawn node, root excluded (the ancestors row stands for all the frames it names). */
export function keyPath(d: FlameNode<ViewNode>): string[] {
  const nodes: ViewNode[] = [];
  for (let n: FlameNode<ViewNode> | null = d; n; n = n.parent as FlameNode<ViewNode> | null) nodes.push(n.data);
  return viewKeyPath(nodes.reverse());
}

/** The key path a click on a drawn box asks to focus: a name in the ancestors row focuses that frame. */
function clickedPath(g: Element, target: Element): string[] {
  const d = select<Element, FlameNode<ViewNode>>(g).datum();
  const index = target.closest('tspan.crumb')?.getAttribute('data-index');
  const ancestors = d.data.ancestors;
  if (ancestors && index != null)
    return [...keyPath(d).slice(0, -ancestors.length), ...ancestors.slice(0, Number(index) + 1).map((a) => a.key)];
  return keyPath(d);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The ancestors row's label: its frames' names, each a link to zoom out to it, the outer ones folded into '…'. */
function drawCrumbs(text: SVGTextElement, names: readonly string[], width: number): void {
  const { elided, crumbs } = fitCrumbs(names, width);
  const parts: SVGTSpanElement[] = [];
  const span = (content: string, cls?: string) => {
    const t = document.createElementNS(SVG_NS, 'tspan');
    t.textContent = content;
    if (cls) t.setAttribute('class', cls);
    parts.push(t);
    return t;
  };
  if (elided) span(CRUMB_MORE + CRUMB_SEPARATOR);
  crumbs.forEach((c, i) => {
    if (i > 0) span(CRUMB_SEPARATOR);
    span(c.text, 'crumb').setAttribute('data-index', String(c.index));
  });
  text.replaceChildren(...parts);
}

/**
 * The key path of the frame drawn at a point of the window, in any pane (null where there is
 * none): where a note dragged onto a frame is pinned.
 */
export function framePathAt(clientX: number, clientY: number): string[] | null {
  for (const el of document.elementsFromPoint(clientX, clientY)) {
    const g = el.closest('g.frame');
    if (g) return keyPath(select<Element, FlameNode<ViewNode>>(g).datum());
  }
  return null;
}

export class FlameChart {
  private readonly chart: FlameGraph<ViewNode>;
  private mounted = false;
  private hoveredKey: string | null = null;
  private colorOf: (d: ViewNode) => string = () => '#ccc';

  constructor(
    private readonly el: HTMLElement,
    handlers: FlameChartHandlers,
  ) {
    this.chart = flamegraph<ViewNode>()
      .cellHeight(CELL_HEIGHT)
      .transitionDuration(0)
      .minFrameSize(0)
      .sort(false)
      .resetHeightOnZoom(true)
      .getName((d) => d.data.name)
      .getValue((d) => d.value)
      .getChildren((d) => d.children)
      // The pane draws its own tooltip; a do-nothing one here keeps d3-flame-graph from adding a
      // <title> to every box.
      .tooltip(Object.assign(() => undefined, { show: () => undefined, hide: () => undefined }));
    this.chart.setColorMapper((d) => this.colorOf(d.data));
    // Clicks are taken before d3-flame-graph sees them: its own zoom would redraw the old tree
    // once more before the store hands every pane the new one.
    el.addEventListener(
      'click',
      (ev) => {
        const target = ev.target as Element | null;
        const g = target?.closest?.('g.frame');
        if (!target || !g) return;
        ev.stopPropagation();
        handlers.onFocus(clickedPath(g, target));
      },
      { capture: true },
    );
    el.addEventListener('mousemove', (ev) => {
      const g = (ev.target as Element | null)?.closest?.('g.frame');
      if (!g) handlers.onHover(null, ev);
      else handlers.onHover(select<Element, FlameNode<ViewNode>>(g).datum(), ev);
    });
    el.addEventListener('mouseleave', () => handlers.onHover(null));
    el.addEventListener('contextmenu', (ev) => {
      const g = (ev.target as Element | null)?.closest?.('g.frame');
      if (!g) return;
      ev.preventDefault();
      const d = select<Element, FlameNode<ViewNode>>(g).datum();
      handlers.onContext(keyPath(d), d.data.name);
    });
  }

  render(tree: ViewNode, width: number, icicle: boolean, colorOf: (d: ViewNode) => string): void {
    const t0 = performance.now();
    this.colorOf = colorOf;
    const w = Math.max(50, Math.floor(width));
    this.chart.width(w).inverted(icicle);
    if (!this.mounted) {
      select(this.el).datum(tree).call(this.chart);
      this.mounted = true;
    } else this.chart.update(tree);
    // d3-flame-graph keeps the boxes of a redraw (matched by node id: the n-th node of the new
    // tree takes the n-th node's box) and moves them and sets their widths and labels in
    // zero-length transitions: timers run in a later frame. They are cancelled and done here, at
    // once. Its HTML labels are replaced by SVG text (see label-fit.ts).
    const svg = this.el.querySelector('svg');
    const h = Number(svg?.getAttribute('height') ?? 0);
    const boxes = select(this.el).selectAll<SVGGElement, FlameNode<ViewNode>>('g.frame');
    interrupt(boxes);
    interrupt(boxes.select('rect'));
    interrupt(boxes.select('foreignObject').select('div'));
    boxes.each(function (d) {
      const bw = (d.x1 - d.x0) * w;
      const y = icicle ? d.depth * CELL_HEIGHT : h - (d.depth + 1) * CELL_HEIGHT;
      // Set only when changed: each attribute write makes the browser restyle the box.
      const transform = `translate(${d.x0 * w},${y})`;
      if (this.getAttribute('transform') !== transform) this.setAttribute('transform', transform);
      const rect = this.firstElementChild;
      if (rect && rect.getAttribute('width') !== String(bw)) rect.setAttribute('width', String(bw));
      this.querySelector('foreignObject')?.remove();
      const ancestors = d.data.ancestors;
      this.classList.toggle('ancestors', ancestors !== undefined);
      this.classList.toggle('focused', d.data.focused === true);
      const label = bw < 35 ? '' : ancestors ? d.data.name : fitLabel(d.data.name, bw - 2 * LABEL_PAD);
      let text = this.querySelector<SVGTextElement>('text.frame-label');
      if (label === '') text?.remove();
      else {
        if (!text) {
          text = document.createElementNS(SVG_NS, 'text');
          text.setAttribute('class', 'frame-label');
          text.setAttribute('x', String(LABEL_PAD));
          text.setAttribute('y', String(CELL_HEIGHT - 5));
          this.appendChild(text);
        }
        if (ancestors)
          drawCrumbs(
            text,
            ancestors.map((a) => a.name),
            bw - 2 * LABEL_PAD,
          );
        else if (text.textContent !== label || text.childElementCount > 0) text.textContent = label;
      }
    });
    // d3-flame-graph has just set every box's class: only a hovered function needs marking again.
    if (this.hoveredKey) this.applyHighlight();
    // User Timing entries: visible in DevTools and read by scripts/bench-ui.mjs.
    performance.measure('flamelens:draw', { start: t0 });
  }

  /** Marks every box of the function with this key (all panes do the same on hover). */
  highlight(key: string | null): void {
    if (key === this.hoveredKey) return;
    this.hoveredKey = key;
    this.applyHighlight();
  }

  private applyHighlight(): void {
    const key = this.hoveredKey;
    select(this.el)
      .selectAll<SVGGElement, FlameNode<ViewNode>>('g.frame')
      .classed('hovered', (d) => key !== null && key !== '' && d.data.key === key);
  }

  /** Where the boxes of these key paths are drawn (undefined where not drawn). */
  boxes(paths: readonly (readonly string[])[]): (BoxRect | undefined)[] {
    const out: (BoxRect | undefined)[] = paths.map(() => undefined);
    if (paths.length === 0) return out;
    const wanted = new Map(paths.map((p, i) => [p.join('\u0001'), i]));
    select(this.el)
      .selectAll<SVGGElement, FlameNode<ViewNode>>('g.frame')
      .each(function (d) {
        const i = wanted.get(keyPath(d).join('\u0001'));
        if (i === undefined) return;
        const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(this.getAttribute('transform') ?? '');
        if (m) out[i] = { x: Number(m[1]), y: Number(m[2]), w: Number(this.getAttribute('width')), h: CELL_HEIGHT };
      });
    return out;
  }

  /** Size of the drawing (the svg), in pixels. */
  size(): { width: number; height: number } {
    const svg = this.el.querySelector('svg');
    return { width: Number(svg?.getAttribute('width') ?? 0), height: Number(svg?.getAttribute('height') ?? 0) };
  }

  destroy(): void {
    this.chart.destroy();
  }
}
