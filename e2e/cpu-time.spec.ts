import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SAMPLE_AGENT, SAMPLE_BASELINE, dropFiles, expectDrawn, pane } from './support';

interface RawProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/**
 * A .cpuprofile's samples weighed by time, straight from its JSON: at startTime plus the running
 * sum of timeDeltas, in time order, each lasting until the next, the last the mean interval.
 * Returns the busy time (V8's (idle) samples left out) and the part of it with a dd-trace frame
 * on the stack.
 */
function rawTimes(path: string): { busy: number; agent: number } {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as RawProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const underAgent = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (/node_modules\/(dd-trace|@datadog)\//.test(byId.get(at)!.callFrame.url)) return true;
    return false;
  };
  let clock = prof.startTime;
  const times = prof.timeDeltas.map((d) => (clock += d));
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const n = order.length;
  const mean = (times[order[n - 1]!]! - times[order[0]!]!) / (n - 1);
  let busy = 0;
  let agent = 0;
  order.forEach((i, k) => {
    const id = prof.samples[i]!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const w = k + 1 < n ? times[order[k + 1]!]! - times[i]! : mean;
    busy += w;
    if (underAgent(id)) agent += w;
  });
  return { busy, agent };
}

test('the cost line reads CPU time weighed by time, as computed from the raw profiles', async ({ page }) => {
  await page.goto('./');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(agent);
  const base = rawTimes(SAMPLE_BASELINE);
  const run = rawTimes(SAMPLE_AGENT);
  const change = Math.round((run.busy / base.busy - 1) * 100);
  expect(change).toBe(259); // by sample count it would read +262%
  await expect(page.getByRole('status', { name: 'Cost of dd-trace.cpuprofile against the baseline' })).toContainText(
    `+${change}% CPU time`,
  );
});

test("the agent's share and the cost are of one total, busy CPU, and say so", async ({ page }) => {
  await page.goto('./');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await expectDrawn(agent);
  const run = rawTimes(SAMPLE_AGENT);
  await expect(agent).toContainText(`${(run.busy / 1e6).toFixed(1)} s busy CPU`);
  await page.getByRole('combobox', { name: 'Agent filter' }).selectOption({ label: 'Datadog (dd-trace)' });
  const share = page.getByRole('status', { name: 'Search share in dd-trace.cpuprofile' });
  // 80.7% of busy CPU time; of every sample's time it would be 64%
  const pct = ((run.agent / run.busy) * 100).toFixed(1);
  expect(pct).toBe('80.7');
  await expect(share).toContainText(`matches own ${pct}% inclusive`);
  await expect(share).toContainText('of busy CPU');
  await expect(page.getByRole('status', { name: 'Cost of dd-trace.cpuprofile against the baseline' })).toContainText('(idle left out)');
  await page.screenshot({ path: 'test-results/busy-cpu.png' });

  // the tooltip's shares are of the same total
  const frame = agent.locator('g.frame[name="emit"]').first();
  await frame.hover();
  const tip = agent.getByRole('tooltip');
  await expect(tip).toContainText('of busy CPU');
  await page.screenshot({ path: 'test-results/busy-cpu-tooltip.png' });
});

test('a trace with samples of several threads says which one the pane shows, and how many there are', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await dropFiles(page, [{ path: 'fixtures/corpus/devtools-frontend/two-workers.json.gz' }]);
  const p = pane(page, 'two-workers.json.gz');
  await expectDrawn(p, 5);
  await expect(p).toContainText('CrRendererMain (71044/259), 1 of 3 threads with samples');
  await page.screenshot({ path: 'test-results/threads.png', clip: { x: 0, y: 120, width: 1400, height: 200 } });
});
