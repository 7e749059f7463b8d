import { describe, expect, it } from 'vitest';
import { INITIAL_STATS_VIEW, statsViewReducer, thresholdOf } from './stats-view-state';

describe('the statistics view state', () => {
  it('sorts a new column largest first (names A→Z) and reverses it on a second click', () => {
    const byCount = statsViewReducer(INITIAL_STATS_VIEW, { type: 'sortClicked', key: { by: 'value', run: 1, measure: 'count' } });
    expect(byCount.sort).toEqual({ key: { by: 'value', run: 1, measure: 'count' }, descending: true });
    const again = statsViewReducer(byCount, { type: 'sortClicked', key: { by: 'value', run: 1, measure: 'count' } });
    expect(again.sort!.descending).toBe(false);
    const otherRun = statsViewReducer(again, { type: 'sortClicked', key: { by: 'value', run: 0, measure: 'count' } });
    expect(otherRun.sort!.descending).toBe(true);
    const byName = statsViewReducer(otherRun, { type: 'sortClicked', key: { by: 'name' } });
    expect(byName.sort).toEqual({ key: { by: 'name' }, descending: false });
  });

  it('drops a sort by a column the new grouping does not have', () => {
    const byName = statsViewReducer(INITIAL_STATS_VIEW, { type: 'sortClicked', key: { by: 'name' } });
    expect(statsViewReducer(byName, { type: 'groupingChosen', grouping: 'phase' }).sort).toBeUndefined();
    const byCount = statsViewReducer(INITIAL_STATS_VIEW, { type: 'sortClicked', key: { by: 'change', run: 1, measure: 'count' } });
    expect(statsViewReducer(byCount, { type: 'groupingChosen', grouping: 'category' }).sort).toBe(byCount.sort);
  });

  it('reads the threshold in percent, falling back to the default for text that is not one', () => {
    const typed = (text: string) => thresholdOf(statsViewReducer(INITIAL_STATS_VIEW, { type: 'thresholdTyped', text }));
    expect(typed('25')).toBe(0.25);
    expect(typed('0')).toBe(0);
    expect(typed('')).toBe(0.1);
    expect(typed('-3')).toBe(0.1);
    expect(typed('abc')).toBe(0.1);
  });
});
