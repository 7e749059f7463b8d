/** Subtree totals from self weights (a pre-order tree: children after their parent). */
export function subtreeTotals(parent: Int32Array, self: Float64Array): Float64Array {
  const total = Float64Array.from(self);
  for (let i = total.length - 1; i >= 1; i--) total[parent[i]!]! += total[i]!;
  return total;
}
