import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { writeRecordServer } from '../test/support/record-server';
import { expectDrawn, pane } from './support';

test('the workspace flamelens record writes opens the experiment: the baseline marked, the wrapper in its pane, the figures as caption', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-record-e2e-'));
  try {
    const server = writeRecordServer(dir);
    const out = join(dir, 'study');
    execFileSync(
      process.execPath,
      [
        'bin/flamelens.mjs',
        'record',
        '--out',
        out,
        '--repeat',
        '2',
        '--requests',
        '1000',
        '--variant',
        `baseline=node ${server}`,
        '--variant',
        `agent=node ${server} --agent`,
      ],
      { stdio: 'pipe' },
    );
    await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
    await page.goto('./');
    await page.getByLabel('Open profile files').setInputFiles(join(out, 'comparison.flamelens'));
    const agent = pane(page, 'agent');
    await expectDrawn(pane(page, 'baseline'), 5);
    await expectDrawn(agent, 5);
    await expect(pane(page, 'baseline').locator('.badge.baseline')).toBeVisible();
    await expect(agent.locator('.badge.baseline')).toHaveCount(0);
    await expect(agent.locator('g.frame[name="agentWrap"]').first()).toBeAttached();
    await expect(page.getByLabel('Caption', { exact: true })).toHaveValue(/agent: 2 runs, median [\d.]+ s, \d+ req\/s, overhead [+−-]/);
    // beside each pane, the figures summary.json gives for its variant (medians of the 2 timed runs)
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      variants: { name: string; runs: { requests: number; seconds: number }[]; overhead?: { median: number; low: number; high: number } }[];
    };
    for (const v of summary.variants) {
      const mid = (xs: number[]) => (xs[0]! + xs[1]!) / 2;
      const requests = mid(v.runs.map((r) => r.requests)).toLocaleString('en-US', { maximumFractionDigits: 0 });
      const seconds = mid(v.runs.map((r) => r.seconds)).toFixed(2);
      const figures = page.getByLabel(`Measured under load: ${v.name}`);
      await expect(figures).toContainText(`${requests} requests in ${seconds} s`);
      await expect(figures).toContainText('2 runs');
      if (v.overhead) {
        const pct = v.overhead.median * 100;
        const shown = `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(Math.abs(pct) < 10 ? 1 : 0)}%`;
        await expect(figures).toContainText(`${shown} ± `);
        await expect(figures).toContainText('vs baseline');
      } else await expect(figures).not.toContainText('vs baseline');
    }
    await page.screenshot({ path: 'test-results/recorded.png' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
