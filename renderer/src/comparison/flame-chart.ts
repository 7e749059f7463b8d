/**
 * One pane's flame chart, drawn as SVG boxes that are kept from one draw to the next
 * (flame-boxes.ts). The renderer owns zoom: a click reports the clicked frame's key path and the
 * store refocuses every pane, each of which then hands this chart a freshly pruned view tree.
 * Hover highlighting is applied here directly, so that mouse movement never re-renders React.
 */
import { type ViewNode, viewKeyPath } from '../../../shared/view/view-tree';
import { BoxPool, CELL_HEIGHT, nodeOf } from './flame-boxes';
import { type FlameLayout, type FlameNode, layoutFlame } from './flame-layout';

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

import type { BoxRect } from '../annotate/note-surface';

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

/** The band of rows drawn beyond the view moves in steps of this many pixels (see `bandAt`). */
export const BAND_STEP = 2 * CELL_HEIGHT;

/**
 * Where a draw leaves the pane scrolled: at the root, at the top, where the user left it, or
 * (`match`) where the search's matches are in view: as it was when one is, else at the widest.
 */
export type ScrollTo = 'root' | 'top' | 'keep' | 'match';

/** Layouts of the view trees drawn lately (a pane keeps its last few trees: see focus-cache.ts). */
const layouts = new WeakMap<ViewNode, FlameLayout>();

/** A view tree's layout, the same nodes as last time for a tree drawn before (their boxes may still show them). */
function layoutOf(tree: ViewNode): FlameLayout {
  let layout = layouts.get(tree);
  if (!layout) layouts.set(tree, (layout = layoutFlame(tree)));
  return layout;
}

/** Charts whose new view tree is laid out and waits to be drawn. */
const waiting = new Set<FlameChart>();

/**
 * Draws a chart once the renders of this task are done (a zoom or a search renders every pane):
 * which rows a pane draws depends on its height, which the same change can alter (breadcrumbs
 * appear, a pane says it lacks the focused path). All the panes' heights are read first, in one
 * layout of what changed around them, then all are drawn: the browser lays out the new boxes
 * once, and no pane draws twice.
 */
function drawSoon(chart: FlameChart): void {
  if (waiting.size === 0)
    queueMicrotask(() => {
      const charts = [...waiting];
      waiting.clear();
      for (const c of charts) c.measureView();
      for (const c of charts) c.drawPending();
    });
  waiting.add(chart);
}

export class FlameChart {
  private readonly svg: SVGSVGElement;
  private readonly pool: BoxPool;
  private readonly resized: ResizeObserver;
  private hoveredKey: string | null = null;
  /** the last draw's boxes (all of them, drawn or not), width, height, orientation and colours */
  private nodes: FlameNode[] = [];
  private w = 0;
  private h = 0;
  private icicle = false;
  private colorOf: (d: ViewNode) => string = () => '#ccc';
  /** the pane's visible height, and where it was last scrolled to (both kept from events: reading them forces a layout) */
  private viewHeight: number | undefined;
  private scrollTop = 0;
  /** the stretch of the drawing that has boxes in the document, in pixels from its top */
  private band = { lo: 0, hi: 0 };
  private pendingScroll: ScrollTo = 'keep';

  constructor(
    private readonly el: HTMLElement,
    handlers: FlameChartHandlers,
  ) {
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
    el.addEventListener(
      'scroll',
      () => {
        this.scrollTop = el.scrollTop;
        if (this.bandAt().lo !== this.band.lo) this.redrawBand();
      },
      { passive: true },
    );
    // A pane of another height shows other rows.
    this.resized = new ResizeObserver(() => {
      if (el.clientHeight === this.viewHeight) return;
      this.viewHeight = el.clientHeight;
      this.scrollTop = el.scrollTop;
      this.redrawBand();
    });
    this.resized.observe(el);
  }

  /**
   * Lays out a view tree `width` pixels wide, the root at the bottom (flame) or the top (icicle),
   * and draws it once this task's renders are done (`drawSoon`), then scrolls the pane as `scroll`
   * says (in the next frame). Only the rows in and near the pane's view are put in the document
   * (see `bandAt`).
   */
  render(tree: ViewNode, width: number, icicle: boolean, colorOf: (d: ViewNode) => string, scroll: ScrollTo = 'keep'): void {
    const { nodes, maxDepth } = layoutOf(tree);
    const w = Math.max(50, Math.floor(width));
    const h = (maxDepth + 3) * CELL_HEIGHT;
    if (w !== this.w) this.svg.setAttribute('width', String(w));
    if (h !== this.h) this.svg.setAttribute('height', String(h));
    Object.assign(this, { nodes, w, h, icicle, colorOf });
    this.pendingScroll = scroll;
    drawSoon(this);
  }

  /** Reads the pane's height (see `drawSoon`). */
  measureView(): void {
    this.viewHeight = this.el.clientHeight;
  }

  /** Draws the band of the last `render` and scrolls as it said. */
  drawPending(): void {
    const t0 = performance.now();
    const scroll = this.pendingScroll;
    const bottom = Math.max(0, this.h - (this.viewHeight ?? 0));
    const match = scroll === 'match' ? this.matchScroll() : undefined;
    this.scrollTop =
      scroll === 'root' ? bottom : scroll === 'top' ? 0 : match !== undefined ? Math.min(match, bottom) : Math.min(this.scrollTop, bottom);
    this.drawBand();
    if (scroll === 'root' || scroll === 'top' || match !== undefined) {
      const el = this.el;
      const to = scroll === 'root' ? el.scrollHeight : this.scrollTop;
      requestAnimationFrame(() => (el.scrollTop = to));
    }
    // User Timing entries: visible in DevTools and read by the benchmark (scripts/bench/).
    performance.measure('flamelens:draw', { start: t0 });
  }

  /** Scrolls the search's matches into view when none is (the pane's height changed). */
  showMatch(): void {
    this.viewHeight = this.el.clientHeight;
    const to = this.matchScroll();
    if (to !== undefined) this.el.scrollTop = to;
  }

  /**
   * Where to scroll so that the search's matches are in view: undefined when one already is (or
   * nothing matches), else the widest in the middle of the view.
   */
  private matchScroll(): number | undefined {
    const view = this.viewHeight ?? 0;
    const inView = (d: FlameNode) => this.yOf(d) >= this.scrollTop && this.yOf(d) + CELL_HEIGHT <= this.scrollTop + view;
    let best: FlameNode | undefined;
    for (const d of this.nodes) {
      if (!d.data.match) continue;
      if (inView(d)) return undefined;
      if (!best || d.x1 - d.x0 > best.x1 - best.x0) best = d;
    }
    return best ? Math.max(0, Math.round(this.yOf(best) - view / 2)) : undefined;
  }

  /** The top of a box in the drawing, in pixels. */
  private yOf(d: FlameNode): number {
    return this.icicle ? d.depth * CELL_HEIGHT : this.h - (d.depth + 1) * CELL_HEIGHT;
  }

  /**
   * The stretch of the drawing to have boxes in the document: the rows the pane shows and a few
   * more above and below (a deep profile has a hundred rows, a pane of four shows seven; every box
   * in the document costs the browser style, layout and paint on each redraw). It moves in steps
   * of `BAND_STEP`, so that it depends only on where the pane is scrolled to, keeps at least one
   * step beyond each edge of the view, and scrolling draws again only once a step. A pane not laid
   * out (no height) draws it all.
   */
  private bandAt(): { lo: number; hi: number } {
    const view = this.viewHeight ?? 0;
    if (view <= 0) return { lo: -Infinity, hi: Infinity };
    // (the pane can scroll past the drawing while the notes layer over it still has the size of
    // the drawing before: what it shows of the drawing is its end)
    const top = Math.min(this.scrollTop, Math.max(0, this.h - view));
    const lo = (Math.floor(top / BAND_STEP) - 1) * BAND_STEP;
    return { lo, hi: lo + view + 3 * BAND_STEP };
  }

  /** Puts in the document the boxes of the band around what the pane shows (the browser lays out and paints only those). */
  private drawBand(): void {
    this.band = this.bandAt();
    const { lo, hi } = this.band;
    const slots: number[] = [];
    this.nodes.forEach((d, slot) => {
      const y = this.yOf(d);
      if (y + CELL_HEIGHT > lo && y < hi) slots.push(slot);
    });
    const hovered = this.hoveredKey;
    const w = this.w;
    this.pool.draw(slots, this.nodes, (d) => ({
      x: d.x0 * w,
      y: this.yOf(d),
      width: (d.x1 - d.x0) * w,
      fill: this.colorOf(d.data),
      className: classOf(d, hovered),
    }));
  }

  /** Draws the band again for a new scroll position or height (timed as `flamelens:band`). */
  private redrawBand(): void {
    const t0 = performance.now();
    this.drawBand();
    performance.measure('flamelens:band', { start: t0 });
  }

  /** Marks every box of the function with this key (all panes do the same on hover). */
  highlight(key: string | null): void {
    const k = key === '' ? null : key;
    if (k === this.hoveredKey) return;
    this.hoveredKey = k;
    this.pool.restyle((d) => classOf(d, k));
  }

  /** Where the boxes of these key paths are (undefined where the drawing has none), drawn or scrolled away. */
  boxes(paths: readonly (readonly string[])[]): (BoxRect | undefined)[] {
    const out: (BoxRect | undefined)[] = paths.map(() => undefined);
    if (paths.length === 0) return out;
    const wanted = new Map(paths.map((p, i) => [p.join('\u0001'), i]));
    for (const d of this.nodes) {
      const i = wanted.get(keyPath(d).join('\u0001'));
      if (i !== undefined) out[i] = { x: d.x0 * this.w, y: this.yOf(d), w: (d.x1 - d.x0) * this.w, h: CELL_HEIGHT };
    }
    return out;
  }

  /** Size of the drawing (the svg), in pixels. */
  size(): { width: number; height: number } {
    return { width: this.w, height: this.h };
  }

  destroy(): void {
    waiting.delete(this);
    this.resized.disconnect();
    this.svg.remove();
  }
}
