import { type Locator, type Page, expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

const MATCH = '#e600e6';

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await page.evaluate(() => document.fonts.ready);
});

/** The visible height of each pane's chart (a pane shows, and has in the document, the rows around what it shows). */
function chartHeights(page: Page) {
  return page.locator('.pane-chart').evaluateAll((charts) => charts.map((c) => c.clientHeight));
}

/** Every drawn box of every pane: its name, place, width, fill, class and label (in the order of their places). */
function picture(page: Page) {
  return page.locator('.pane-chart').evaluateAll((charts) =>
    charts.map((c) =>
      [...c.querySelectorAll('g.frame')]
        .map((g) => {
          const rect = g.querySelector('rect')!;
          const text = g.querySelector('text');
          return {
            name: g.getAttribute('name'),
            place: `${rect.getAttribute('x')},${rect.getAttribute('y')}`,
            width: rect.getAttribute('width'),
            fill: rect.getAttribute('fill'),
            className: g.getAttribute('class'),
            label: text?.textContent ?? '',
            labelAt: text ? `${text.getAttribute('x')},${text.getAttribute('y')}` : '',
          };
        })
        .sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0)),
    ),
  );
}

test('a search recolours the boxes already drawn and writes nothing else', async ({ page }) => {
  const agent = pane(page, 'dd-trace.cpuprofile');
  const heights = await chartHeights(page);
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
  // the panes show as many rows as before, so they have the same boxes: the same elements, in
  // the same order (nothing made, nothing taken out), only fills written
  expect(await chartHeights(page)).toEqual(heights);
  expect(after).toBe(before);
  expect(same).toBe(true);
  // only fills written, each to a new colour: the agent's frames turn the match colour
  expect(writes.length).toBeGreaterThan(0);
  for (const m of writes) expect(m).toMatchObject({ attr: 'fill', tag: 'rect' });
  for (const m of writes) expect(m.now).not.toBe(m.old);
  expect(writes.filter((m) => m.now === MATCH).length).toBeGreaterThan(0);
});

test('a zoom and Esc draw the same picture as before the zoom, with the same elements', async ({ page }) => {
  const base = pane(page, 'baseline.cpuprofile');
  const first = await picture(page);
  // each box's element, by the place it draws
  await page.evaluate(() => {
    const w = window as unknown as { drewBefore: Map<string, Element> };
    const place = (g: Element) => `${g.querySelector('rect')!.getAttribute('x')},${g.querySelector('rect')!.getAttribute('y')}`;
    w.drewBefore = new Map([...document.querySelectorAll('.pane-chart g.frame')].map((g) => [place(g), g]));
  });
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
  // the boxes Esc brings back are the elements that drew them before the zoom (nothing to rewrite)
  const same = await page.evaluate(() => {
    const w = window as unknown as { drewBefore: Map<string, Element> };
    const place = (g: Element) => `${g.querySelector('rect')!.getAttribute('x')},${g.querySelector('rect')!.getAttribute('y')}`;
    const now = [...document.querySelectorAll('.pane-chart g.frame')];
    return now.filter((g) => w.drewBefore.get(place(g)) === g).length / now.length;
  });
  expect(same).toBe(1);
});

test('Esc after a zoom brings back the boxes the zoom took out as they were, with nothing to rewrite', async ({ page }) => {
  const base = pane(page, 'baseline.cpuprofile');
  await base.locator('g.frame[name="runMicrotasks"]').first().click();
  const crumbs = page.getByRole('navigation', { name: 'Focused call path' });
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText('runMicrotasks');
  await page.mouse.move(1, 1);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() => {
    const w = window as unknown as { writes: { attr: string | null; target: string; added: number }[]; zoomed: Set<Element> };
    w.zoomed = new Set(document.querySelectorAll('.pane-chart g.frame'));
    w.writes = [];
    const seen = new MutationObserver((list) => {
      for (const m of list) w.writes.push({ attr: m.attributeName, target: (m.target as Element).tagName, added: m.addedNodes.length });
    });
    for (const svg of document.querySelectorAll('.pane-chart svg'))
      seen.observe(svg, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.keyboard.press('Escape');
  await expect(crumbs).toBeHidden();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { writes, back } = await page.evaluate(() => {
    const w = window as unknown as { writes: { attr: string | null; target: string; added: number }[]; zoomed: Set<Element> };
    const back = [...document.querySelectorAll('.pane-chart g.frame')].filter((g) => !w.zoomed.has(g)).length;
    return { writes: w.writes, back };
  });
  // the boxes of the whole tree come back into the document…
  expect(back).toBeGreaterThan(50);
  expect(writes.filter((m) => m.target === 'svg' && m.added > 0).length).toBeGreaterThan(0);
  // …still showing what they drew: no box is given another frame, place, width or label (a box
  // the zoom kept may move up or down, as the drawing's height changes, and be recoloured)
  const rewrites = writes.filter(
    (m) => ['name', 'x', 'width'].includes(m.attr ?? '') || (m.attr === null && (m.target === 'text' || m.target === 'tspan')),
  );
  expect(rewrites).toEqual([]);
});

test('a zoom draws each pane once, at the height the zoom leaves it', async ({ page }) => {
  // The breadcrumbs appear and the baseline says it lacks the path: both panes get shorter.
  const heights = await chartHeights(page);
  await page.evaluate(() => performance.clearMeasures());
  await pane(page, 'dd-trace.cpuprofile').locator('g.frame[name="sendWithTrace"]').first().click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' })).toBeVisible();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
  expect(await chartHeights(page)).not.toEqual(heights);
  const draws = await page.evaluate(() => ({
    draws: performance.getEntriesByName('flamelens:draw').length,
    again: performance.getEntriesByName('flamelens:band').length,
  }));
  expect(draws).toEqual({ draws: 2, again: 0 });
});

/** The chart's scroll position and height, the drawing's height and the depths of the boxes it has in the document. */
function rows(chart: Locator) {
  return chart.evaluate((c) => ({
    top: c.scrollTop,
    view: c.clientHeight,
    height: Number(c.querySelector('svg.flame-graph')!.getAttribute('height')),
    depths: [...new Set([...c.querySelectorAll('g.frame')].map((g) => (g as unknown as { __data__: { depth: number } }).__data__.depth))],
  }));
}

test('a pane has the rows around what it shows in the document, and draws the rows it is scrolled to', async ({ page }) => {
  const agent = pane(page, 'dd-trace.cpuprofile');
  const chart = agent.getByTestId('flame-chart');
  const ROW = 18;
  const at = await rows(chart);
  const deepest = at.height / ROW - 3;
  // A flame graph opens at its root, at the bottom: the rows in view are drawn, the deepest are far above.
  expect(at.top + at.view).toBe(at.height);
  expect(at.height).toBeGreaterThan(4 * at.view);
  const inView = (r: typeof at) => {
    const out: number[] = [];
    for (let d = 0; d <= deepest; d++) {
      const y = r.height - (d + 1) * ROW;
      if (y + ROW > r.top && y < r.top + r.view) out.push(d);
    }
    return out;
  };
  expect(at.depths).toEqual(expect.arrayContaining(inView(at)));
  expect(at.depths).not.toContain(deepest);
  // and only a few rows beyond what it shows (every box in the document costs each redraw)
  const nearView = (r: typeof at) =>
    r.depths.filter((d) => Math.abs(r.height - (d + 0.5) * ROW - (r.top + r.view / 2)) > r.view / 2 + 4 * ROW);
  expect(nearView(at)).toEqual([]);
  // Scrolled to the top: the deepest rows are drawn, the root is not.
  await chart.evaluate((c) => (c.scrollTop = 0));
  await expect.poll(async () => (await rows(chart)).depths).toContain(deepest);
  const top = await rows(chart);
  expect(top.depths).toEqual(expect.arrayContaining(inView(top)));
  expect(top.depths).not.toContain(0);
  expect(nearView(top)).toEqual([]);
  // A box drawn there works as any other: under the pointer, it shows its tooltip.
  const point = await chart.evaluate((c) => {
    const view = c.getBoundingClientRect();
    const seen = [...c.querySelectorAll('g.frame rect')]
      .map((r) => r.getBoundingClientRect())
      .filter((r) => r.top >= view.top && r.bottom <= view.bottom);
    const widest = seen.sort((a, b) => b.width - a.width)[0];
    return widest ? { x: widest.left + widest.width / 2, y: widest.top + widest.height / 2 } : null;
  });
  expect(point).not.toBeNull();
  await page.mouse.move(point!.x, point!.y);
  await expect(agent.getByRole('tooltip')).toContainText('total');
  await expect(agent.locator('g.frame.hovered').first()).toBeAttached();
});
