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
