/**
 * The built page's own `<meta>` Content-Security-Policy, on its own: every response here has its
 * CSP header taken away, so only the policy in the page can refuse eval, inline script and remote
 * content. (With the header on, as served, the meta tag could go missing unnoticed.)
 */
import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

test('without the CSP header, the page’s own policy still refuses eval, inline script and remote requests', async ({ page }) => {
  let stripped = 0;
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    if ('content-security-policy' in headers) stripped++;
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  expect(stripped).toBeGreaterThan(0);

  const seen = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
    // A string given to setTimeout is eval'ed by the page, outside this evaluation (which
    // DevTools runs whatever the policy says).
    (setTimeout as (code: string, ms: number) => number)('window.__evalRan = true', 0);
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
    await fetch('https://example.com/collect').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const ran = window as unknown as { __inlineRan?: boolean; __evalRan?: boolean };
    return { evaluated: ran.__evalRan === true, inlineRan: ran.__inlineRan === true, violations };
  });
  expect(seen.evaluated).toBe(false);
  expect(seen.inlineRan).toBe(false);
  expect(seen.violations).toEqual(expect.arrayContaining(['script-src', 'script-src-elem', 'connect-src']));
});
