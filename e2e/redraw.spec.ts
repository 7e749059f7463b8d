import { type Page, expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

const MATCH = '#e600e6';

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
});

/** Every drawn box of every pane: its name, place, width, fill, class and label. */
function picture(page: Page) {
  return page.locator('.pane-chart').evaluateAll((charts) =>
    charts.map((c) =>
      [...c.querySelectorAll('g.frame')].map((g) => ({
        name: g.getAttribute('name'),
        transform: g.getAttribute('transform'),
        width: g.querySelector('rect')!.getAttribute('width'),
        fill: g.querySelector('rect')!.getAttribute('fill'),
        className: g.getAttribute('class'),
        label: g.querySelector('text')?.textContent ?? '',
      })),
    ),
  );
}

test('a search recolours the boxes already drawn and writes nothing else', async ({ page }) => {
  const agent = pane(page, 'dd-trace.cpuprofile');
  const before = await page.evaluate(() => {
    const w = window as unknown as {
      boxesBefore: Element[];
      writes: { attr: string | null; tag: string; old: string | null; now: string | null }[];
    };
    w.boxesBefore = [...document.querySelectorAll('.pane-chart g.frame')];
    w.writes = [];
    const seen = new MutationObserver((list) => {
      for (const m of list) {
        const el = m.target as Element;
        w.writes.push({
          attr: m.attributeName,
          tag: m.type === 'attributes' ? el.tagName : m.type,
          old: m.oldValue,
          now: m.attributeName ? el.getAttribute(m.attributeName) : null,
        });
      }
    });
    for (const svg of document.querySelectorAll('.pane-chart svg'))
      seen.observe(svg, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });
    return w.boxesBefore.length;
  });
  await page.getByRole('searchbox').fill('dd-trace');
  await page.getByRole('searchbox').press('Enter');
  await expect(agent.locator(`g.frame rect[fill="${MATCH}"]`).first()).toBeAttached();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { writes, same, after } = await page.evaluate(() => {
    const w = window as unknown as {
      boxesBefore: Element[];
      writes: { attr: string | null; tag: string; old: string | null; now: string | null }[];
    };
    const now = [...document.querySelectorAll('.pane-chart g.frame')];
    return { writes: w.writes, same: now.every((g, i) => g === w.boxesBefore[i]), after: now.length };
  });
  // the same elements, in the same order: nothing made, nothing taken out
  expect(after).toBe(before);
  expect(same).toBe(true);
  // only fills written, each to a new colour: the agent's frames turn the match colour
  expect(writes.length).toBeGreaterThan(0);
  for (const m of writes) expect(m).toMatchObject({ attr: 'fill', tag: 'rect' });
  for (const m of writes) expect(m.now).not.toBe(m.old);
  expect(writes.filter((m) => m.now === MATCH).length).toBeGreaterThan(0);
});

test('a zoom and Esc draw the same picture as before the zoom', async ({ page }) => {
  const base = pane(page, 'baseline.cpuprofile');
  const first = await picture(page);
  await base.locator('g.frame[name="runMicrotasks"]').first().click();
  const crumbs = page.getByRole('navigation', { name: 'Focused call path' });
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText('runMicrotasks');
  const zoomed = await picture(page);
  expect(zoomed).not.toEqual(first);
  await page.keyboard.press('Escape');
  await expect(crumbs).toBeHidden();
  // the pointer leaves the chart: nothing hovered, as before the click
  await page.mouse.move(1, 1);
  await expect.poll(() => picture(page)).toEqual(first);
});
