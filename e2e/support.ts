/** Helpers for driving Flamelens as a person would. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Locator, type Page, expect } from '@playwright/test';
import { PNG } from 'pngjs';
// @ts-expect-error: a plain ES module of the benchmark, without types
import { generateCpuprofile, generateLongCpuprofile } from '../scripts/bench/generate.mjs';

export const SAMPLE_BASELINE = 'assets/samples/baseline.cpuprofile';
export const SAMPLE_AGENT = 'assets/samples/dd-trace.cpuprofile';

/** Drops files onto the window, like dragging them from the desktop. */
export async function dropFiles(page: Page, files: ({ path: string; name?: string } | { name: string; bytes: Buffer })[]): Promise<void> {
  const payload = files.map((f) =>
    'bytes' in f
      ? { name: f.name, b64: f.bytes.toString('base64') }
      : { name: f.name ?? basename(f.path), b64: readFileSync(f.path).toString('base64') },
  );
  const dt = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const it of items) {
      const bin = Uint8Array.from(atob(it.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bin], it.name));
    }
    return dt;
  }, payload);
  await page.dispatchEvent('.app', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('.app', 'drop', { dataTransfer: dt });
}

export function pane(page: Page, title: string): Locator {
  return page.getByRole('region', { name: `Run ${title}` });
}

/** Waits until a pane has drawn its flamegraph. */
export async function expectDrawn(p: Locator, minFrames = 20): Promise<void> {
  await expect(p.locator('g.frame').nth(minFrames - 1)).toBeAttached();
}

/**
 * The bundled comparison with `more` runs dropped onto it (three make the five runs the panes,
 * time-order and export tests read): every pane drawn. Returns the panes.
 */
export async function openWithMore(page: Page, more: { path: string; name?: string }[]): Promise<Locator> {
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await dropFiles(page, more);
  const panes = page.locator('section.pane');
  await expect(panes).toHaveCount(2 + more.length);
  for (let i = 0; i < 2 + more.length; i++) await expect(panes.nth(i).locator('g.frame').nth(5)).toBeAttached();
  return panes;
}

/** Pixel statistics of a PNG: how many pixels are not background-like, how many colours. */
export function pngStats(buf: Buffer): { width: number; height: number; colored: number; colors: number } {
  const png = PNG.sync.read(buf);
  const colors = new Set<number>();
  let colored = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const r = png.data[i]!;
    const g = png.data[i + 1]!;
    const b = png.data[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 40) colored++;
    colors.add((r << 16) | (g << 8) | b);
  }
  return { width: png.width, height: png.height, colored, colors: colors.size };
}

/**
 * Opens the app, takes away the bundled sample comparison it opens with, and opens `files` with
 * the Open button's input instead; returns the panes.
 */
export async function openInsteadOfSample(page: Page, files: string[]): Promise<Locator> {
  await page.goto('./');
  const panes = page.getByRole('region', { name: /^Run / });
  await expect(panes).not.toHaveCount(0);
  while ((await panes.count()) > 0)
    await page
      .getByRole('button', { name: /^Remove / })
      .first()
      .click();
  await page.getByLabel('Open profile files').setInputFiles(files);
  return panes;
}

/**
 * `count` big `.cpuprofile` runs in a new temporary folder, named as `node --cpu-prof` names them
 * (`CPU.20261121.<hhmm><nn>.<pid>.0.001.cpuprofile`, one process each from `firstPid`): the real
 * dd-trace profile repeated to `size` bytes.
 */
export function generatedRuns(tag: string, count: number, size: number, hhmm: string, firstPid: number): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), `flamelens-${tag}-`));
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `CPU.20261121.${hhmm}${10 + i}.${firstPid + i}.0.001.cpuprofile`);
    generateCpuprofile(path, size);
    files.push(path);
  }
  return { dir, files };
}

/** A long capture of `samples` samples (the ddtrace run's call tree, its samples repeated), named as `node --cpu-prof` names it, in a new folder. */
export function generatedLongRun(tag: string, samples: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), `flamelens-${tag}-`));
  const file = join(dir, 'CPU.20261127.120000.4242.0.001.cpuprofile');
  generateLongCpuprofile(file, samples);
  return { dir, file };
}
