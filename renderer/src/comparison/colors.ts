/**
 * Frame colours: the hue says the category (app, dependency, Node core, native, V8, GC, kernel…),
 * a small variation derived from the frame key keeps neighbours apart and gives the same function
 * the same colour in every pane, and interpreted code is drawn paler than optimized code.
 */
import { CATEGORY_NAMES, Category, Tier } from '../../../shared/model/types';
import type { Palette } from '../store/view-slice';

interface Swatch {
  h: number;
  s: number;
  l: number;
}

const DEFAULT: Record<number, Swatch> = {
  [Category.App]: { h: 14, s: 80, l: 58 },
  [Category.Dependency]: { h: 38, s: 90, l: 55 },
  [Category.NodeCore]: { h: 112, s: 45, l: 52 },
  [Category.Native]: { h: 205, s: 25, l: 62 },
  [Category.V8]: { h: 268, s: 45, l: 68 },
  [Category.GC]: { h: 350, s: 75, l: 45 },
  [Category.Kernel]: { h: 178, s: 50, l: 45 },
  [Category.RegExp]: { h: 318, s: 55, l: 65 },
  [Category.Wasm]: { h: 228, s: 60, l: 60 },
  [Category.Idle]: { h: 0, s: 0, l: 82 },
  [Category.Other]: { h: 30, s: 20, l: 66 },
};

// Okabe–Ito colours, distinguishable with the common colour-vision deficiencies.
const COLORBLIND: Record<number, Swatch> = {
  [Category.App]: { h: 27, s: 100, l: 42 }, // vermillion
  [Category.Dependency]: { h: 41, s: 100, l: 45 }, // orange
  [Category.NodeCore]: { h: 164, s: 100, l: 31 }, // bluish green
  [Category.Native]: { h: 0, s: 0, l: 60 }, // grey
  [Category.V8]: { h: 326, s: 42, l: 64 }, // reddish purple
  [Category.GC]: { h: 56, s: 85, l: 60 }, // yellow
  [Category.Kernel]: { h: 202, s: 100, l: 35 }, // blue
  [Category.RegExp]: { h: 202, s: 77, l: 62 }, // sky blue
  [Category.Wasm]: { h: 202, s: 100, l: 25 },
  [Category.Idle]: { h: 0, s: 0, l: 85 },
  [Category.Other]: { h: 0, s: 0, l: 72 },
};

export const MATCH_COLOR: Record<Palette, string> = { default: '#e600e6', colorblind: '#000000' };

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) / 4294967296;
}

export function frameColor(palette: Palette, category: number, tier: number, key: string, context = false): string {
  const table = palette === 'colorblind' ? COLORBLIND : DEFAULT;
  const sw = table[category] ?? table[Category.Other]!;
  const v = hash(key) - 0.5; // -0.5 … 0.5
  const h = sw.h + (palette === 'colorblind' ? 0 : v * 14);
  let s = sw.s;
  let l = sw.l + v * 12;
  if (tier === Tier.Interpreted) {
    s *= 0.45;
    l = Math.min(88, l + 10);
  }
  if (context) {
    s *= 0.3;
    l = Math.min(92, l + 18);
  }
  return `hsl(${h.toFixed(1)} ${s.toFixed(1)}% ${l.toFixed(1)}%)`;
}

/** Legend entries: each category's base colour. */
export function legend(palette: Palette): { category: number; name: string; color: string }[] {
  return CATEGORY_NAMES.map((name, category) => ({ category, name, color: frameColor(palette, category, Tier.Optimized, '') }));
}
