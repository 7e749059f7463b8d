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
/** Boxes out of the document kept for later draws: at least this many, or this many per box drawn. */
const SPARE_MIN = 1000;
const SPARE_PER_DRAWN = 4;

/** A box's `g` element; its laid-out node is its `__data__`, where d3-selection's `datum()` finds it too. */
export type BoxElement = SVGGElement & { __data__?: FlameNode };

/** The laid-out node drawn by a box element. */
export function nodeOf(g: Element): FlameNode | undefined {
  return (g as BoxElement).__data__;
}

/**
 * What a box is to show: worked out for every box of a draw, written only where it changed. Its
 * place is written as the `x`/`y` of its rectangle and label, not as a `transform` on its group:
 * the browser gives every transformed element a paint property node and a paint chunk of its own,
 * which it builds and composites again for every box on every frame that changes the drawing.
 */
export interface BoxLook {
  x: number;
  y: number;
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
  return { g, rect, text: null, look: { x: NaN, y: NaN, width: -1, fill: '', className: '' }, name: '', labelFor: '', labelWidth: 0 };
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
  }
  if (!text.parentNode) {
    placeLabel(text, box.look);
    box.g.appendChild(text);
  }
  if (d.ancestors)
    drawCrumbs(
      text,
      d.ancestors.map((a) => a.name),
      width - 2 * LABEL_PAD,
    );
  else text.textContent = fitLabel(d.name, width - 2 * LABEL_PAD);
}

/** A label's place: inside its box's left edge, on the row's baseline. */
const labelX = (look: BoxLook) => String(look.x + LABEL_PAD);
const labelY = (look: BoxLook) => String(look.y + CELL_HEIGHT - 5);

function placeLabel(text: SVGTextElement, look: BoxLook): void {
  text.setAttribute('x', labelX(look));
  text.setAttribute('y', labelY(look));
}

function applyLook(box: Box, look: BoxLook): void {
  const was = box.look;
  // (a label out of the document is placed as it comes back: setLabel)
  const text = box.text?.parentNode ? box.text : null;
  if (was.x !== look.x) {
    box.rect.setAttribute('x', String(look.x));
    text?.setAttribute('x', labelX(look));
  }
  if (was.y !== look.y) {
    box.rect.setAttribute('y', String(look.y));
    text?.setAttribute('y', labelY(look));
  }
  if (was.width !== look.width) {
    // on the `g` too: what queries on the drawing read a box's width from
    box.rect.setAttribute('width', String(look.width));
    box.g.setAttribute('width', String(look.width));
  }
  if (was.fill !== look.fill) box.rect.setAttribute('fill', look.fill);
  if (was.className !== look.className) box.g.setAttribute('class', look.className);
  box.look = look;
}

/** The same box of two draws: the same frame on the same row (a search or a new width redraws a layout of the same shape). */
function sameBox(a: FlameNode, b: FlameNode): boolean {
  return a.depth === b.depth && a.data.key === b.data.key;
}

/**
 * A chart's boxes by slot: a node's place in its draw's layout. A box keeps its element from one
 * draw to the next: the node it draws (layouts of view trees drawn before are kept: Esc after a
 * zoom draws the nodes it drew before the zoom), else the same frame on the same row at its slot
 * (a search redraws a layout of the same shape: the same elements, recoloured). Boxes no longer
 * drawn leave the document and are kept, by the node they show, for the draws to come: a node
 * drawn again (Esc, scrolling back) takes its own box back, which still shows it.
 */
export class BoxPool {
  private bySlot = new Map<number, Box>();
  /** boxes out of the document, by the node they last drew, the longest out first */
  private readonly spare = new Map<FlameNode, Box>();

  constructor(private readonly svg: SVGSVGElement) {}

  /** Draws the nodes of these slots (`nodes[slot]`), each as `lookOf` says; takes out the others. */
  draw(slots: readonly number[], nodes: readonly FlameNode[], lookOf: (d: FlameNode) => BoxLook): void {
    const was = this.bySlot;
    this.bySlot = new Map();
    const added = document.createDocumentFragment();
    const fresh: number[] = [];
    // first the boxes that stay: the same node, or the same frame on the same row, at their slot
    for (const slot of slots) {
      const box = was.get(slot);
      const d = nodes[slot]!;
      const node = box?.g.__data__;
      if (box && node && (node === d || (!this.spare.has(d) && sameBox(node, d)))) {
        this.bySlot.set(slot, box);
        was.delete(slot);
      } else fresh.push(slot);
    }
    // boxes for the others from those out before this draw: the ones this draw takes out still
    // show what they drew (a zoom leaves the boxes of the view before it as they are, for Esc)
    for (const slot of fresh) {
      const box = this.take(nodes[slot]!);
      this.bySlot.set(slot, box);
      added.appendChild(box.g);
    }
    for (const box of was.values()) {
      box.g.remove();
      this.keep(box);
    }
    for (const [slot, box] of this.bySlot) {
      const d = nodes[slot]!;
      box.g.__data__ = d;
      const look = lookOf(d);
      applyLook(box, look);
      if (box.name !== d.data.name) box.g.setAttribute('name', (box.name = d.data.name));
      setLabel(box, d.data, look.width);
    }
    this.svg.appendChild(added);
    this.trim();
  }

  /** Keeps a box taken out of the document, as the one that shows its node. */
  private keep(box: Box): void {
    const node = box.g.__data__;
    if (!node) return;
    this.spare.delete(node);
    this.spare.set(node, box);
  }

  /** A box out of the document for this node: the one that last drew it, else the one out longest, else a new one. */
  private take(d: FlameNode): Box {
    const own = this.spare.get(d);
    const key = own ? d : this.spare.keys().next().value;
    if (key === undefined) return newBox();
    const box = this.spare.get(key)!;
    this.spare.delete(key);
    return box;
  }

  /** Lets go of the boxes out longest beyond a few times as many as are drawn. */
  private trim(): void {
    const keep = Math.max(SPARE_MIN, SPARE_PER_DRAWN * this.bySlot.size);
    for (const node of this.spare.keys()) {
      if (this.spare.size <= keep) break;
      this.spare.delete(node);
    }
  }

  /** Sets the class of every box drawn (a hover), written only where it changed. */
  restyle(classOf: (d: FlameNode) => string): void {
    for (const box of this.bySlot.values()) {
      const className = classOf(box.g.__data__!);
      if (className !== box.look.className) applyLook(box, { ...box.look, className });
    }
  }
}
