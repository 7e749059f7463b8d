/** What a pane's drawing offers the notes drawn over it (the flame chart provides it). */

/** A box's place in a drawing, in pixels. */
export interface BoxRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface NoteSurface {
  /** the place of each frame, by key path, where it is drawn */
  boxes(paths: readonly (readonly string[])[]): (BoxRect | undefined)[];
  /** the whole drawing's size (it scrolls inside the pane) */
  size(): { width: number; height: number };
}

/** The key path of the frame drawn at a point of the window, in any pane, or null. */
export type FramePathAt = (clientX: number, clientY: number) => string[] | null;
