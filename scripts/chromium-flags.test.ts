import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from './chromium-flags.mjs';
import { browserPid } from './bench/app.mjs';
import { CHROMIUM } from './bench/browser.mjs';
import { treeCpuMs } from './bench/cpu-time.mjs';

const linux = existsSync('/proc/self/stat');

describe('the Chromium the tests and benchmarks drive', () => {
  // Headless Chromium loads the omnibox's popup page at start, in a renderer of its own, whose
  // animation then uses ~600 ms of CPU in these seconds; a blank page's renderers use ~100 ms.
  it.skipIf(!linux)(
    'spends no CPU on pages of its own beside the one it is given (a blank page, 4 s)',
    async () => {
      const mark = `--flamelens-flags-test=${process.pid}-${Date.now()}`;
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, mark] });
      try {
        const page = await browser.newPage();
        await page.goto('about:blank');
        await page.waitForTimeout(4000);
        const pid = browserPid(mark);
        expect(pid).toBeDefined();
        const cpu = treeCpuMs(pid!);
        expect(cpu.renderer).toBeLessThan(350);
      } finally {
        await browser.close();
      }
    },
    30_000,
  );
});
