/**
 * Sizes of exported pictures for where they will be pasted. A preset is drawn at a CSS size
 * (what text sizes are measured against) and written at its pixel size: 1.5 pixels per CSS pixel
 * for a comment or a slide, 150 dpi for A4 (96 CSS pixels to the inch), so that the labels stay
 * legible where the picture is shown. *Custom* is the comparison at any width, as tall as it is,
 * at 1x–3x.
 */

export type PresetId = 'github' | 'slide' | 'a4-portrait' | 'a4-landscape' | 'custom';

export interface ExportPreset {
  id: Exclude<PresetId, 'custom'>;
  label: string;
  /** drawn at this width in CSS pixels */
  width: number;
  /** fixed height in CSS pixels (slides, pages) */
  height?: number;
  /** or the most height: as tall as the content needs, up to this */
  maxHeight?: number;
  /** written at this many pixels wide… */
  pixelWidth: number;
  /** …and this tall (fixed), or as tall as drawn times the preset's scale up to this */
  pixelHeight?: number;
  maxPixelHeight?: number;
}

export const EXPORT_PRESETS: readonly ExportPreset[] = [
  { id: 'github', label: 'GitHub comment (1200 px wide)', width: 800, maxHeight: 1333, pixelWidth: 1200, maxPixelHeight: 2000 },
  { id: 'slide', label: 'Slide 16:9 (1920×1080)', width: 1280, height: 720, pixelWidth: 1920, pixelHeight: 1080 },
  { id: 'a4-portrait', label: 'A4 portrait, 150 dpi (1240×1754)', width: 794, height: 1123, pixelWidth: 1240, pixelHeight: 1754 },
  { id: 'a4-landscape', label: 'A4 landscape, 150 dpi (1754×1240)', width: 1123, height: 794, pixelWidth: 1754, pixelHeight: 1240 },
];

export function presetById(id: PresetId): ExportPreset | undefined {
  return EXPORT_PRESETS.find((p) => p.id === id);
}

/** The PNG's size in pixels for a picture of the preset drawn `drawnHeight` CSS pixels tall. */
export function presetPixels(p: ExportPreset, drawnHeight: number): { width: number; height: number } {
  if (p.pixelHeight !== undefined) return { width: p.pixelWidth, height: p.pixelHeight };
  const h = Math.round((drawnHeight * p.pixelWidth) / p.width);
  return { width: p.pixelWidth, height: Math.min(h, p.maxPixelHeight ?? h) };
}
