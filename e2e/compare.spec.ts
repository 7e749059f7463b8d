import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

function percent(text: string | null): number {
  const m = /([\d.]+)% inclusive/.exec(text ?? '');
  return m ? Number(m[1]) : NaN;
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
});

test('the dd-trace filter finds the agent in its run and nothing in the baseline', async ({ page }) => {
  await page.getByRole('combobox', { name: 'Agent filter' }).selectOption({ label: 'Datadog (dd-trace)' });
  const agentShare = page.getByRole('status', { name: 'Search share in dd-trace.cpuprofile' });
  const baseShare = page.getByRole('status', { name: 'Search share in baseline.cpuprofile' });
  await expect(agentShare).toContainText('inclusive');
  expect(percent(await agentShare.textContent())).toBeGreaterThan(10);
  expect(percent(await baseShare.textContent())).toBe(0);
  await expect(agentShare).toContainText('vs baseline');
  // Plain text matches file paths too.
  await page.getByRole('searchbox').fill('dd-trace');
  expect(percent(await agentShare.textContent())).toBeGreaterThan(10);
  await page.screenshot({ path: 'test-results/agent-filter.png' });
});

test('a click in one pane focuses the same call path in every pane', async ({ page }) => {
  const base = pane(page, 'baseline.cpuprofile');
  const agent = pane(page, 'dd-trace.cpuprofile');
  // Find a frame name drawn in both panes, wide enough to click.
  const target = await base.locator('g.frame').evaluateAll((gs) => {
    const wide = gs.filter((g) => Number(g.getAttribute('width')) > 60).map((g) => g.getAttribute('name'));
    return wide.find((n) => n && !['(root)', 'all'].includes(n) && !n.startsWith('baseline')) ?? null;
  });
  expect(target).not.toBeNull();
  await base.locator(`g.frame[name="${target}"]`).first().click();
  const crumbs = page.getByRole('navigation', { name: 'Focused call path' });
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText(target!);
  // The other pane now draws that frame across its full width, or says it lacks the path.
  const agentFrame = agent.locator(`g.frame[name="${target}"]`).first();
  const lacks = agent.getByRole('note').filter({ hasText: 'does not have the full focused path' });
  await expect(agentFrame.or(lacks)).toBeVisible();
  if (await agentFrame.isVisible()) {
    const width = Number(await agentFrame.getAttribute('width'));
    const chartWidth = await agent.getByTestId('flame-chart').evaluate((e) => e.clientWidth);
    expect(width).toBeGreaterThan(chartWidth * 0.95);
  }
  await page.screenshot({ path: 'test-results/zoomed.png' });
  await page.keyboard.press('Escape');
  await expect(crumbs).toBeHidden();
});

test('hovering a frame highlights the same function in all panes, with a tooltip', async ({ page }) => {
  const base = pane(page, 'baseline.cpuprofile');
  const agent = pane(page, 'dd-trace.cpuprofile');
  const name = await base.locator('g.frame').evaluateAll((gs) => {
    const wide = gs.filter((g) => Number(g.getAttribute('width')) > 80).map((g) => g.getAttribute('name'));
    return wide.find((n) => n && n !== 'baseline.cpuprofile') ?? null;
  });
  await base.locator(`g.frame[name="${name}"]`).first().hover();
  await expect(base.locator('g.frame.hovered').first()).toBeAttached();
  await expect(agent.locator('g.frame.hovered').first()).toBeAttached();
  const tip = base.getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('total');
  await expect(tip).toContainText('self');
  await page.screenshot({ path: 'test-results/hover.png' });
});
