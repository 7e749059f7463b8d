/**
 * An imperative wrapper around d3-flame-graph for one pane. The renderer owns zoom: a click
 * reports the clicked frame's key path and the store refocuses every pane, each of which then
 * hands this chart a freshly pruned view tree. Hover highlighting is applied here directly, so
 * that mouse movement never re-renders React.
 */
import flamegraph, { type FlameGraph, type FlameNode } from 'd3-flame-graph';
import { select } from 'd3-selection';
import type { ViewNode } from '../../../shared/view/view-tree';

export interface FlameChartHandlers {
  /** a frame was clicked: its key path from the root */
  onFocus(path: string[]): void;
  /** the pointer is over a frame (or left the chart: null) */
  onHover(node: FlameNode<ViewNode> | null, ev?: MouseEvent): void;
}

export const CELL_HEIGHT = 18;

/** Key path of a drawn node, root excluded. */
export function keyPath(d: FlameNode<ViewNode>): string[] {
  const path: string[] = [];
  for (let n: FlameNode<ViewNode> | null = d; n; n = n.parent as FlameNode<ViewNode> | null) {
    if (n.data.key !== '') path.push(n.data.key);
  }
  return path.reverse();
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
      .setLabelHandler(() => '');
    this.chart.setColorMapper((d) => this.colorOf(d.data));
    this.chart.onClick((d) => handlers.onFocus(keyPath(d)));
    el.addEventListener('mousemove', (ev) => {
      const g = (ev.target as Element | null)?.closest?.('g.frame');
      if (!g) handlers.onHover(null, ev);
      else handlers.onHover(select<Element, FlameNode<ViewNode>>(g).datum(), ev);
    });
    el.addEventListener('mouseleave', () => handlers.onHover(null));
  }

  render(tree: ViewNode, width: number, icicle: boolean, colorOf: (d: ViewNode) => string): void {
    this.colorOf = colorOf;
    this.chart.width(Math.max(50, Math.floor(width))).inverted(icicle);
    if (!this.mounted) {
      select(this.el).datum(tree).call(this.chart);
      this.mounted = true;
    } else this.chart.update(tree);
    this.applyHighlight();
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

  destroy(): void {
    this.chart.destroy();
  }
}
