/**
 * A file crafted to build far more than its size (a 20 KB pprof whose one sample repeats a
 * location of a thousand inlined lines: 4 M call-tree nodes) ends in the app with one line naming
 * the file and the build budget (shared/model/budget.ts), and the runs already open stay.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { pprofInlineChain } from '../test/fuzz/gen-amplify';
import { dropFiles, expectDrawn, pane } from './support';

let dir: string;
let chain: string;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-budget-'));
  chain = join(dir, 'chain.pb');
  writeFileSync(chain, pprofInlineChain(1000, 4000));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the app ends an import past its build budget in one line naming the file, and the other runs stay', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await dropFiles(page, [{ path: chain }]);
  const alert = pane(page, 'chain.pb').getByRole('alert');
  await expect(alert).toContainText('the budget is 64 MiB plus 16 bytes per byte read', { timeout: 60_000 });
  const said = (await alert.innerText()).split('\n').find((l) => l.includes('budget'))!;
  expect(said).toMatch(/^chain\.pb: the profile would take more memory than any profile of its size needs .*[^\n]$/);
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await page.screenshot({ path: 'test-results/build-budget.png' });
});
