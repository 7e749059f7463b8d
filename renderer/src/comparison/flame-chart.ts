/**
 * One pane's flame chart, drawn as SVG boxes that are kept from one draw to the next
 * (flame-boxes.ts). The renderer owns zoom: a click reports the clicked frame's key path and the
 * store refocuses every pane, each of which then hands this chart a freshly pruned view tree.
 * Hover highlighting is applied here directly, so that mouse movement never re-renders React.
 */
import { type ViewNode, viewKeyPath } from '../../../shared/view/view-tree';
import { BoxPool, CELL_HEIGHT, nodeOf } from './flame-boxes';
import { type FlameNode, layoutFlame } from './flame-layout';

export { CELL_HEIGHT } from './flame-boxes';
export type { FlameNode } from './flame-layout';

export interface FlameChartHandlers {
  /** a frame was clicked: its key path from the root */
  onFocus(path: string[]): void;
  /** the pointer is over a frame (or left the chart: null) */
  onHover(node: FlameNode | null, ev?: MouseEvent): void;
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

/** Key path of a drawn node, root excluded (the ancestors row stands for all the frames it names). */
export function keyPath(d: FlameNode): string[] {
  const nodes: ViewNode[] = [];
  for (let n: FlameNode | null = d; n; n = n.parent) nodes.push(n.data);
  return viewKeyPath(nodes.reverse());
}

/** The key path a click on a drawn box asks to focus: a name in the ancestors row focuses that frame. */
function clickedPath(d: FlameNode, target: Element): string[] {
  const index = target.closest('tspan.crumb')?.getAttribute('data-index');
  const ancestors = d.data.ancestors;
  if (ancestors && index != null)
    return [...keyPath(d).slice(0, -ancestors.length), ...ancestors.slice(0, Number(index) + 1).map((a) => a.key)];
  return keyPath(d);
}

/** The drawn node under an event's target, if any. */
function nodeAt(target: EventTarget | null): FlameNode | undefined {
  const g = (target as Element | null)?.closest?.('g.frame');
  return g ? nodeOf(g) : undefined;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The key path of the frame drawn at a point of the window, in any pane (null where there is
 * none): where a note dragged onto a frame is pinned.
 */
export function framePathAt(clientX: number, clientY: number): string[] | null {
  for (const el of document.elementsFromPoint(clientX, clientY)) {
    const d = nodeAt(el);
    if (d) return keyPath(d);
  }
  return null;
}

/** The class of a box: focused frame, ancestors row, hovered function. */
function classOf(d: FlameNode, hoveredKey: string | null): string {
  let c = 'frame';
  if (d.data.ancestors) c += ' ancestors';
  if (d.data.focused) c += ' focused';
  if (hoveredKey && d.data.key === hoveredKey) c += ' hovered';
  return c;
}

export class FlameChart {
  private readonly svg: SVGSVGElement;
  private readonly pool: BoxPool;
  private hoveredKey: string | null = null;
  /** the last draw's width, height and orientation */
  private w = 0;
  private h = 0;
  private icicle = false;

  constructor(el: HTMLElement, handlers: FlameChartHandlers) {
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('class', 'flame-graph');
    el.appendChild(this.svg);
    this.pool = new BoxPool(this.svg);
    // A click on a box is the chart's alone (it focuses that frame in every pane).
    el.addEventListener(
      'click',
      (ev) => {
        const d = nodeAt(ev.target);
        if (!d) return;
        ev.stopPropagation();
        handlers.onFocus(clickedPath(d, ev.target as Element));
      },
      { capture: true },
    );
    el.addEventListener('mousemove', (ev) => handlers.onHover(nodeAt(ev.target) ?? null, ev));
    el.addEventListener('mouseleave', () => handlers.onHover(null));
    el.addEventListener('contextmenu', (ev) => {
      const d = nodeAt(ev.target);
      if (!d) return;
      ev.preventDefault();
      handlers.onContext(keyPath(d), d.data.name);
    });
  }

  /** Draws a view tree `width` pixels wide, the root at the bottom (flame) or the top (icicle). */
  render(tree: ViewNode, width: number, icicle: boolean, colorOf: (d: ViewNode) => string): void {
    const t0 = performance.now();
    const { nodes, maxDepth } = layoutFlame(tree);
    const w = Math.max(50, Math.floor(width));
    const h = (maxDepth + 3) * CELL_HEIGHT;
    if (w !== this.w) this.svg.setAttribute('width', String(w));
    if (h !== this.h) this.svg.setAttribute('height', String(h));
    Object.assign(this, { w, h, icicle });
    const hovered = this.hoveredKey;
    this.pool.draw(nodes, (d) => ({
      transform: `translate(${d.x0 * w},${icicle ? d.depth * CELL_HEIGHT : h - (d.depth + 1) * CELL_HEIGHT})`,
      width: (d.x1 - d.x0) * w,
      fill: colorOf(d.data),
      className: classOf(d, hovered),
    }));
    // User Timing entries: visible in DevTools and read by the benchmark (scripts/bench/).
    performance.measure('flamelens:draw', { start: t0 });
  }

  /** Marks every box of the function with this key (all panes do the same on hover). */
  highlight(key: string | null): void {
    const k = key === '' ? null : key;
    if (k === this.hoveredKey) return;
    this.hoveredKey = k;
    this.pool.restyle((d) => classOf(d, k));
  }

  /** Where the boxes of these key paths are drawn (undefined where not drawn). */
  boxes(paths: readonly (readonly string[])[]): (BoxRect | undefined)[] {
    const out: (BoxRect | undefined)[] = paths.map(() => undefined);
    if (paths.length === 0) return out;
    const wanted = new Map(paths.map((p, i) => [p.join('\u0001'), i]));
    for (const { d, look } of this.pool.drawn()) {
      const i = wanted.get(keyPath(d).join('\u0001'));
      if (i === undefined) continue;
      const y = this.icicle ? d.depth * CELL_HEIGHT : this.h - (d.depth + 1) * CELL_HEIGHT;
      out[i] = { x: d.x0 * this.w, y, w: look.width, h: CELL_HEIGHT };
    }
    return out;
  }

  /** Size of the drawing (the svg), in pixels. */
  size(): { width: number; height: number } {
    return { width: this.w, height: this.h };
  }

  destroy(): void {
    this.svg.remove();
  }
}
