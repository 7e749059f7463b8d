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

test('the Record… dialog runs the experiment on this machine, shows its progress and opens what it recorded', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-record-dialog-'));
  try {
    const server = writeRecordServer(dir);
    await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
    await page.goto('./');
    await page.getByRole('button', { name: 'record a comparison' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a comparison' });
    await expect(dialog.getByRole('note')).toContainText('on this computer, as you');
    await expect(dialog.getByRole('button', { name: 'Record' })).toBeDisabled();
    await dialog.getByLabel('Variant 1 command').fill(`node ${server}`);
    await dialog.getByLabel('Variant 2 name').fill('agent');
    await dialog.getByLabel('Variant 2 command').fill(`node ${server} --agent`);
    await dialog.getByLabel('Requests per run').fill('600');
    await dialog.getByLabel('Timed runs per variant').fill('2');
    await dialog.getByLabel('Trace events').uncheck();
    await dialog.getByLabel('Folder (new or empty)').fill(join(dir, 'study'));
    await dialog.getByRole('button', { name: 'Record' }).click();
    await expect(dialog.getByLabel('Recording progress')).toContainText('run 1/2: baseline');
    await page.screenshot({ path: 'test-results/record-dialog.png' });
    await expect(dialog).toBeHidden({ timeout: 90_000 });
    await expectDrawn(pane(page, 'baseline'), 5);
    await expectDrawn(pane(page, 'agent'), 5);
    await expect(pane(page, 'agent').locator('g.frame[name="agentWrap"]').first()).toBeAttached();
    await expect(page.getByLabel('Measured under load: agent')).toContainText(
      /600 requests in [\d.]+ s, [+−][\d.]+% ± [\d.]+% vs baseline, 2 runs/,
    );
    await expect(page.getByRole('status').filter({ hasText: 'Recorded into' })).toContainText(join(dir, 'study'));
    // what was typed is kept for the next recording
    await page.keyboard.press('r');
    await expect(dialog.getByLabel('Variant 2 command')).toHaveValue(`node ${server} --agent`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
