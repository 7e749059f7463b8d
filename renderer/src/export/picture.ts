/**
 * The picture an export writes, worked out once per choice in the dialog: the SVG that the preview
 * shows is the very string that is saved or rasterized, so that the preview is what will be written.
 */
import { useMemo, useState } from 'react';
import { useStore } from '../store/store';
import { buildExportInput } from './export-input';
import { type PresetId, presetById, presetPixels } from './export-presets';
import { type ExportScale, type RasterResult, fitScale, rasterizeSvg, rasterizeSvgTo } from './rasterize';
import { renderComparisonSvg } from './render-svg';

export interface PictureChoice {
  preset: PresetId;
  /** width in CSS pixels and scale of the custom size */
  width: number;
  scale: ExportScale;
  onlyMatches: boolean;
}

export interface Picture {
  svg: string;
  /** drawn size in CSS pixels */
  width: number;
  height: number;
  /** the PNG's size in pixels */
  pixelWidth: number;
  pixelHeight: number;
}

const CHOICE_KEY = 'flamelens.exportChoice';
const DEFAULT_CHOICE: PictureChoice = { preset: 'github', width: 1600, scale: 2, onlyMatches: false };

/** The size and options last used, so that the next export starts from them. */
export function loadChoice(): PictureChoice {
  try {
    const c = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? 'null') as Partial<PictureChoice> | null;
    const preset = c?.preset === 'custom' || presetById(c?.preset as PresetId) ? (c!.preset as PresetId) : DEFAULT_CHOICE.preset;
    const width = typeof c?.width === 'number' && c.width >= 320 && c.width <= 6000 ? c.width : DEFAULT_CHOICE.width;
    const scale = c?.scale === 1 || c?.scale === 2 || c?.scale === 3 ? c.scale : DEFAULT_CHOICE.scale;
    return { preset, width, scale, onlyMatches: c?.onlyMatches === true };
  } catch {
    return DEFAULT_CHOICE;
  }
}

export function saveChoice(c: PictureChoice): void {
  try {
    localStorage.setItem(CHOICE_KEY, JSON.stringify(c));
  } catch {
    /* storage unavailable: the choice lasts while the dialog is open */
  }
}

/** The comparison as it stands in the store, drawn for `choice` (not read off the screen). */
export function renderPicture(choice: PictureChoice, date: Date): Picture {
  const s = useStore.getState();
  const preset = choice.preset === 'custom' ? undefined : presetById(choice.preset);
  const opts = { width: preset?.width ?? choice.width, date, onlyMatches: choice.onlyMatches };
  const fit = preset
    ? { ...(preset.height ? { height: preset.height } : {}), ...(preset.maxHeight ? { maxHeight: preset.maxHeight } : {}) }
    : {};
  const { svg, width, height } = renderComparisonSvg(buildExportInput(s, s.annotationHistory.present, { ...opts, ...fit }));
  if (preset) return { svg, width, height, ...pixelsOf(presetPixels(preset, height)) };
  const scale = fitScale(width, height, choice.scale);
  return { svg, width, height, pixelWidth: Math.round(width * scale), pixelHeight: Math.round(height * scale) };
}

const pixelsOf = (p: { width: number; height: number }) => ({ pixelWidth: p.width, pixelHeight: p.height });

/** The picture as a PNG at its pixel size. */
export function rasterizePicture(p: Picture, choice: PictureChoice): Promise<RasterResult> {
  return choice.preset === 'custom'
    ? rasterizeSvg(p.svg, p.width, p.height, choice.scale)
    : rasterizeSvgTo(p.svg, p.width, p.pixelWidth, p.pixelHeight);
}

/** The picture for the dialog's current choice, and a URL of its SVG for the preview. */
export function usePicture(choice: PictureChoice): { picture: Picture | undefined; previewUrl: string | undefined; error: string } {
  const [date] = useState(() => new Date());
  const { preset, width, scale, onlyMatches } = choice;
  const result = useMemo(() => {
    try {
      return { picture: renderPicture({ preset, width, scale, onlyMatches }, date), error: '' };
    } catch (e) {
      return { picture: undefined, error: e instanceof Error ? e.message : String(e) };
    }
  }, [preset, width, scale, onlyMatches, date]);
  // A data: URL (the CSP allows it for images) of the very string saved and rasterized.
  const previewUrl = useMemo(
    () => (result.picture ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(result.picture.svg)}` : undefined),
    [result.picture],
  );
  return { ...result, previewUrl };
}
