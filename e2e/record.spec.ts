import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

// A small HTTP server; with --agent each request first runs a wrapper's synchronous work.
const SERVER = `
const http = require('node:http');
function agentWrap(handler) {
  return function agentWrap(req, res) { let x = 0; for (let i = 0; i < 300000; i++) x += i % 7; return handler(req, res); };
}
let handler = (req, res) => res.end('ok');
if (process.argv.includes('--agent')) handler = agentWrap(handler);
http.createServer(handler).listen(Number(process.env.PORT), '127.0.0.1');
`;

test('the workspace flamelens record writes opens the experiment: the baseline marked, the wrapper in its pane, the figures as caption', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-record-e2e-'));
  try {
    const server = join(dir, 'server.js');
    writeFileSync(server, SERVER);
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
    await page.screenshot({ path: 'test-results/recorded.png' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
