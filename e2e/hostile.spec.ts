import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

test('a random binary, a truncated trace and an empty file give three clear errors and a working app', async ({ page }) => {
  const random = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 13) & 0xff));
  const trace = gunzipSync(readFileSync('fixtures/samples/baseline/node_trace.1.log.gz'));
  // Cut in the middle of the first event: nothing complete is left.
  const truncated = trace.subarray(0, 40);
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await dropFiles(page, [
    { name: 'random.bin', bytes: random },
    { name: 'killed.trace.json', bytes: truncated },
    { name: 'zero.cpuprofile', bytes: Buffer.alloc(0) },
  ]);
  for (const [name, says] of [
    ['random.bin', /random\.bin: .*(binary|not a profile)/],
    ['killed.trace.json', /killed\.trace\.json.*(byte|no trace events|events)/i],
    ['zero.cpuprofile', /zero\.cpuprofile: the file is empty/],
  ] as const) {
    await expect(pane(page, name).getByRole('alert')).toContainText(says);
  }
  // The other runs still work: search, zoom, hover.
  await page.getByRole('searchbox').fill('dd-trace');
  await expect(page.getByRole('status', { name: 'Search share in dd-trace.cpuprofile' })).toContainText('inclusive');
  await pane(page, 'dd-trace.cpuprofile').locator('g.frame[name="runMicrotasks"]').first().click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' })).toBeVisible();
  await page.screenshot({ path: 'test-results/hostile.png' });
});

test('the page and its workers may compile WebAssembly (the import worker’s line scanner), never eval JavaScript', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { refused: string[] };
    w.refused = [];
    document.addEventListener('securitypolicyviolation', (e) => w.refused.push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  // The app's own code tries nothing the policy refuses (a library testing for generators by
  // compiling one from a string did, at every start).
  expect(await page.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([]);
  const probe = `let wasm = false, evaluated = false;
    try { new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); wasm = true; } catch {}
    try { (0, eval)('1'); evaluated = true; } catch {}
    postMessage({ wasm, evaluated });`;
  const result = await page.evaluate(async (source) => {
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const inWorker = await new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    worker.terminate();
    let evaluated = false;
    try {
      (0, eval)('1');
      evaluated = true;
    } catch {
      // refused, as it must be
    }
    return { inWorker, page: { wasm: WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])), evaluated } };
  }, probe);
  expect(result).toEqual({ inWorker: { wasm: true, evaluated: false }, page: { wasm: true, evaluated: false } });
});

test('the local server answers only requests that carry the secret of its address', async ({ page, baseURL }) => {
  await page.goto('./');
  await expect(page.getByRole('region', { name: /^Run / }).first()).toBeVisible();
  const origin = new URL(baseURL!).origin;
  for (const path of ['/', '/api/initial-items', '/index.html'])
    expect((await page.request.get(`${origin}${path}`)).status(), path).toBe(403);
  expect((await page.request.get(`${baseURL}api/initial-items`)).status()).toBe(200);
});
