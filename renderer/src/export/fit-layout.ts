/**
 * How the panes of a picture of fixed size (a slide, a page, a capped comment image) share its
 * height: each pane row gets the rows its trees need while they fit, and the rest is shared out
 * evenly among the deeper ones (water-filling), so that a shallow run does not take space a deep
 * one could use. Where one column of panes leaves each too few rows, the panes go side by side
 * in a grid of as few columns as give each pane a readable depth.
 */

/** Rows a pane shows at the least before the grid gets another column. */
export const GOOD_ROWS = 8;
/** Rows a pane shows at the least whatever the picture's size: a frame row and the cut marker. */
export const MIN_ROWS = 2;

/**
 * `total` rows shared by parts that need `needs` rows: the parts that need less than an even
 * share get what they need, the others share the rest evenly (the first ones one more row when
 * it does not divide). Never more than a part needs; when nothing is left a part gets 0.
 */
export function shareRows(needs: readonly number[], total: number): number[] {
  const out = needs.map(() => 0);
  let left = Math.max(0, Math.floor(total));
  const open = needs.map((need, i) => ({ need, i })).sort((a, b) => a.need - b.need || a.i - b.i);
  while (open.length > 0) {
    const fair = Math.floor(left / open.length);
    if (open[0]!.need <= fair) {
      const { need, i } = open.shift()!;
      out[i] = need;
      left -= need;
      continue;
    }
    let extra = left - fair * open.length;
    for (const { i } of [...open].sort((a, b) => a.i - b.i)) {
      out[i] = fair + (extra > 0 ? 1 : 0);
      extra--;
    }
    break;
  }
  return out;
}

export interface FitProblem {
  /** rows each pane's tree needs to be drawn whole (its depth + 1) */
  needs: readonly number[];
  /** the most columns worth trying (panes narrower than that lose their labels) */
  maxCols: number;
  /** the height in rows that the charts of all pane rows have together with `cols` columns */
  rowsAvailable(cols: number): number;
}

export interface FitResult {
  cols: number;
  /** rows drawn per pane: the same for the panes of one grid row */
  rows: number[];
}

function tryCols(p: FitProblem, cols: number): { rows: number[]; worst: number } {
  const gridRows = Math.ceil(p.needs.length / cols);
  const rowNeeds = Array.from({ length: gridRows }, (_, g) => Math.max(...p.needs.slice(g * cols, (g + 1) * cols)));
  const shares = shareRows(rowNeeds, p.rowsAvailable(cols));
  // How far the pane row worst off is from a readable depth (1 when it has it or all it needs).
  const worst = Math.min(...shares.map((s, g) => s / Math.min(rowNeeds[g]!, GOOD_ROWS)));
  const rows = p.needs.map((need, i) => Math.max(Math.min(need, MIN_ROWS), shares[Math.floor(i / cols)]!));
  return { rows, worst };
}

/** The fewest columns at which every pane shows a readable depth; else the columns that come closest. */
export function fitGrid(p: FitProblem): FitResult {
  let best: (FitResult & { worst: number }) | undefined;
  const most = Math.max(1, Math.min(p.maxCols, p.needs.length));
  for (let cols = 1; cols <= most; cols++) {
    const { rows, worst } = tryCols(p, cols);
    if (worst >= 1) return { cols, rows };
    if (!best || worst > best.worst) best = { cols, rows, worst };
  }
  return { cols: best!.cols, rows: best!.rows };
}
