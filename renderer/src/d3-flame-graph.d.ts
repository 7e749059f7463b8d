/** Local types for d3-flame-graph 5, which ships none: only the parts Flamelens uses. */
declare module 'd3-flame-graph' {
  import type { HierarchyNode } from 'd3-hierarchy';

  export interface FlameNode<T> extends HierarchyNode<T> {
    x0: number;
    x1: number;
    id: number;
    highlight?: boolean;
  }

  export interface FlameGraph<T> {
    (selection: import('d3-selection').Selection<HTMLElement, T, null, undefined>): void;
    width(w: number): FlameGraph<T>;
    height(h: number | null): FlameGraph<T>;
    minHeight(h: number): FlameGraph<T>;
    cellHeight(h: number): FlameGraph<T>;
    transitionDuration(ms: number): FlameGraph<T>;
    sort(s: boolean | ((a: FlameNode<T>, b: FlameNode<T>) => number)): FlameGraph<T>;
    inverted(b: boolean): FlameGraph<T>;
    minFrameSize(px: number): FlameGraph<T>;
    selfValue(b: boolean): FlameGraph<T>;
    resetHeightOnZoom(b: boolean): FlameGraph<T>;
    title(t: string): FlameGraph<T>;
    tooltip(t: boolean | object | ((...args: unknown[]) => unknown)): FlameGraph<T>;
    getName(fn: (d: FlameNode<T>) => string): FlameGraph<T>;
    getValue(fn: (d: T) => number): FlameGraph<T>;
    getChildren(fn: (d: T) => T[] | undefined): FlameGraph<T>;
    setColorMapper(fn: (d: FlameNode<T>, original: string) => string): FlameGraph<T>;
    setLabelHandler(fn: (d: FlameNode<T>) => string): FlameGraph<T>;
    setDetailsHandler(fn: (text: string | null) => void): FlameGraph<T>;
    onClick(fn: (d: FlameNode<T>) => void): FlameGraph<T>;
    onHover(fn: (d: FlameNode<T>) => void): FlameGraph<T>;
    update(data?: T): void;
    destroy(): void;
  }

  export default function flamegraph<T = unknown>(): FlameGraph<T>;
  export const colorMapper: {
    differentialColorMapper(d: unknown, original: string): string;
    allocationColorMapper(d: unknown, original: string): string;
    nodeJsColorMapper(d: unknown, original: string): string;
    offCpuColorMapper(d: unknown, original: string): string;
  };
}
