/**
 * The boxes of one flame chart as SVG elements that are kept from one draw to the next (see
 * `BoxPool`), with only what differs from what an element shows written to it (each write makes
 * the browser restyle the box): a search that only recolours boxes writes their fills; a zoom
 * moves and relabels the boxes it keeps, and takes the others out of the document, kept for the
 * next draw that needs them.
 */
import type { ViewNode } from '../../../shared/view/view-tree';
import type { FlameNode } from './flame-layout';
import { CRUMB_MORE, CRUMB_SEPARATOR, LABEL_PAD, fitCrumbs, fitLabel } from './label-fit';

export const CELL_HEIGHT = 18;
/** Boxes narrower than this (pixels) get no label. */
const MIN_LABEL_WIDTH = 35;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A box's `g` element; its laid-out node is its `__data__`, where d3-selection's `datum()` finds it too. */
export type BoxElement = SVGGElement & { __data__?: FlameNode };

/** The laid-out node drawn by a box element. */
export function nodeOf(g: Element): FlameNode | undefined {
  return (g as BoxElement).__data__;
}

/** What a box is to show: worked out for every box of a draw, written only where it changed. */
export interface BoxLook {
  transform: string;
  width: number;
  fill: string;
  className: string;
}

/** One box's elements and what was last written to them. */
interface Box {
  g: BoxElement;
  rect: SVGRectElement;
  text: SVGTextElement | null;
  look: BoxLook;
  /** the frame name in the `name` attribute */
  name: string;
  /** what the label was made from (name or ancestors, and width), so it is fitted again only when that changes */
  labelFor: string;
  labelWidth: number;
}

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

function newBox(): Box {
  const g = document.createElementNS(SVG_NS, 'g') as BoxElement;
  const rect = document.createElementNS(SVG_NS, 'rect');
  rect.setAttribute('height', String(CELL_HEIGHT));
  g.appendChild(rect);
  return { g, rect, text: null, look: { transform: '', width: -1, fill: '', className: '' }, name: '', labelFor: '', labelWidth: 0 };
}

/** What its label is made from; '' where the box is too narrow for one. */
function labelSource(d: ViewNode, width: number): string {
  if (width < MIN_LABEL_WIDTH) return '';
  return d.ancestors ? `A\u0000${d.ancestors.map((a) => a.name).join('\u0000')}` : `N\u0000${d.name}`;
}

function setLabel(box: Box, d: ViewNode, width: number): void {
  const source = labelSource(d, width);
  if (source === box.labelFor && (source === '' || width === box.labelWidth)) return;
  box.labelFor = source;
  box.labelWidth = width;
  // A box without a label has no text element (even an empty one costs the browser a layout).
  if (source === '') {
    box.text?.remove();
    return;
  }
  let text = box.text;
  if (!text) {
    text = box.text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('class', 'frame-label');
    text.setAttribute('x', String(LABEL_PAD));
    text.setAttribute('y', String(CELL_HEIGHT - 5));
  }
  if (!text.parentNode) box.g.appendChild(text);
  if (d.ancestors)
    drawCrumbs(
      text,
      d.ancestors.map((a) => a.name),
      width - 2 * LABEL_PAD,
    );
  else text.textContent = fitLabel(d.name, width - 2 * LABEL_PAD);
}

function applyLook(box: Box, look: BoxLook): void {
  const was = box.look;
  if (was.transform !== look.transform) box.g.setAttribute('transform', look.transform);
  if (was.width !== look.width) {
    // on the `g` too: what queries on the drawing read a box's width from
    box.rect.setAttribute('width', String(look.width));
    box.g.setAttribute('width', String(look.width));
  }
  if (was.fill !== look.fill) box.rect.setAttribute('fill', look.fill);
  if (was.className !== look.className) box.g.setAttribute('class', look.className);
  box.look = look;
}

/**
 * A chart's boxes by slot: a node's place in its draw's layout. A slot keeps its element from one
 * draw to the next (a search redraws the same layout: the same elements, recoloured), and while
 * scrolling (a box stays the element it is as long as it is in the drawn band); elements of slots
 * no longer drawn leave the document and are kept for the next slots to come.
 */
export class BoxPool {
  private readonly bySlot = new Map<number, Box>();
  /** boxes out of the document, by the slot they last drew: a slot drawn again takes its own back (an Esc after a zoom brings back boxes that still show what it draws) */
  private readonly spare = new Map<number, Box>();

  constructor(private readonly svg: SVGSVGElement) {}

  /** Draws the nodes of these slots (`nodes[slot]`), each as `lookOf` says; takes out the others. */
  draw(slots: readonly number[], nodes: readonly FlameNode[], lookOf: (d: FlameNode) => BoxLook): void {
    const wanted = new Set(slots);
    for (const [slot, box] of this.bySlot)
      if (!wanted.has(slot)) {
        box.g.remove();
        this.spare.set(slot, box);
        this.bySlot.delete(slot);
      }
    const added = document.createDocumentFragment();
    for (const slot of slots) {
      let box = this.bySlot.get(slot);
      if (!box) {
        box = this.takeSpare(slot);
        this.bySlot.set(slot, box);
        added.appendChild(box.g);
      }
      const d = nodes[slot]!;
      box.g.__data__ = d;
      const look = lookOf(d);
      applyLook(box, look);
      if (box.name !== d.data.name) box.g.setAttribute('name', (box.name = d.data.name));
      setLabel(box, d.data, look.width);
    }
    this.svg.appendChild(added);
  }

  /** A box out of the document for this slot: the one that last drew it, else any, else a new one. */
  private takeSpare(slot: number): Box {
    const own = this.spare.get(slot);
    const other = own ? slot : this.spare.keys().next().value;
    if (other === undefined) return newBox();
    const box = this.spare.get(other)!;
    this.spare.delete(other);
    return box;
  }

  /** Sets the class of every box drawn (a hover), written only where it changed. */
  restyle(classOf: (d: FlameNode) => string): void {
    for (const box of this.bySlot.values()) {
      const className = classOf(box.g.__data__!);
      if (className !== box.look.className) applyLook(box, { ...box.look, className });
    }
  }
}
