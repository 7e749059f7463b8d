import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { trackedSnapshot } from '../test/support/track-heap';
import { dropFiles, expectDrawn, pane } from './support';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

/** Bytes of the live objects whose trace node is in the trace tree, from the raw file. */
function liveTrackedBytes(path: string): number {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[] } };
    nodes: number[];
    trace_tree: unknown[];
  };
  const ids = new Set<number>();
  const lists: unknown[][] = [raw.trace_tree];
  while (lists.length > 0) {
    const list = lists.pop()!;
    for (let i = 0; i < list.length; i += 5) {
      ids.add(list[i] as number);
      lists.push(list[i + 4] as unknown[]);
    }
  }
  const f = raw.snapshot.meta.node_fields;
  const [t, s] = [f.indexOf('trace_node_id'), f.indexOf('self_size')];
  let bytes = 0;
  for (let i = 0; i < raw.nodes.length; i += f.length) if (ids.has(raw.nodes[i + t]!)) bytes += raw.nodes[i + s]!;
  return bytes;
}

test('a snapshot taken with --track-heap-objects shows the stacks that allocated what is alive', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-e2e-track-'));
  try {
    const path = trackedSnapshot(dir);
    await dropFiles(page, [{ path }]);
    await expectDrawn(pane(page, 'tracked.heapsnapshot'), 5);
    await page.getByRole('tab', { name: 'Heap' }).click();
    const stacks = page.getByRole('region', { name: 'Allocation stacks' });
    const live = stacks.getByRole('status', { name: 'Live bytes by allocation stack in tracked.heapsnapshot' });
    await expect(live).toHaveAttribute('title', `${liveTrackedBytes(path).toLocaleString('en-US')} bytes`);
    await expect(live).toContainText('live objects');
    await expect(stacks.locator('g.frame').first()).toBeAttached();
    await page.screenshot({ path: 'test-results/heap-allocation-stacks.png' });
    // the program's own stack: makeSessions, then the Session constructor it calls
    await expect(stacks.locator('text.frame-label', { hasText: /^Session$/ })).toBeAttached();
    await expect(stacks.locator('text.frame-label', { hasText: /^makeSessi/ })).toBeAttached();
    // one run and nothing to compare with: its classes come largest retained size first
    const retained = await page
      .getByRole('table', { name: 'Classes' })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.slice(0, 15).map((r) => r.querySelector('td:last-child')?.textContent ?? ''));
    const bytes = retained.map((t) => {
      const m = /([\d.,]+)\s*(B|kB|MB|GB)/.exec(t)!;
      return Number(m[1]!.replace(/,/g, '')) * { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[m[2] as 'B'];
    });
    expect(bytes.length).toBe(15);
    for (let i = 1; i < bytes.length; i++) expect(bytes[i]).toBeLessThanOrEqual(bytes[i - 1]!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
