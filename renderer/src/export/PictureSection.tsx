import { useState } from 'react';
import { host } from '../host/host';
import { exportFileName } from '../host/file-name';
import { useStore } from '../store/store';
import { EXPORT_PRESETS, type PresetId } from './export-presets';
import { type PictureChoice, loadChoice, rasterizePicture, saveChoice, usePicture } from './picture';
import { type ExportScale, blobBytes, copyPngToClipboard } from './rasterize';

type Act = (label: string, fn: () => Promise<string | null | void>) => () => Promise<void>;

function baseName(): string {
  const s = useStore.getState();
  return s.annotationHistory.present.title || s.runs.map((r) => r.title.replace(/\.[^.]+$/, '')).join(' vs ') || 'comparison';
}

/**
 * The picture part of the export dialog: a size (a preset or a custom width and scale), whether
 * to draw only the stacks the search matches, a preview of exactly what will be written, and
 * Save PNG / Save SVG / Copy PNG.
 */
export function PictureSection({ act }: { act: Act }) {
  const hasQuery = useStore((s) => s.query.trim() !== '');
  const [choice, setChoice] = useState<PictureChoice>(loadChoice);
  const set = (patch: Partial<PictureChoice>) => {
    const next = { ...choice, ...patch };
    setChoice(next);
    saveChoice(next);
  };
  const { picture, previewUrl, error } = usePicture(choice);

  const savePng = act('PNG', async () => {
    const png = await rasterizePicture(picture!, choice);
    return host.saveFile({
      defaultName: exportFileName(baseName(), 'png'),
      filters: [{ name: 'PNG image', extensions: ['png'] }],
      data: await blobBytes(png.blob),
    });
  });
  const saveSvg = act('SVG', async () =>
    host.saveFile({
      defaultName: exportFileName(baseName(), 'svg'),
      filters: [{ name: 'SVG image', extensions: ['svg'] }],
      data: picture!.svg,
    }),
  );
  // The clipboard write starts inside the click so that the browser still counts it as the user's.
  const copyPng = act('Copy', () => copyPngToClipboard(rasterizePicture(picture!, choice).then((r) => r.blob)));

  return (
    <section className="picture-section">
      <h3>Picture</h3>
      <p className="muted">
        Run names, totals and shares, every pane, the legend, notes and the date — drawn for export, whatever the window shows. A size of
        its own fits the panes to it, cutting deep stacks with a marker.
      </p>
      <div className="picture-controls">
        <label>
          size
          <select aria-label="Picture size" value={choice.preset} onChange={(e) => set({ preset: e.currentTarget.value as PresetId })}>
            {EXPORT_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
            <option value="custom">Custom width</option>
          </select>
        </label>
        {choice.preset === 'custom' && (
          <>
            <label>
              width
              <input
                type="number"
                aria-label="Picture width"
                min={600}
                max={6000}
                step={100}
                value={choice.width}
                onChange={(e) => set({ width: Number(e.currentTarget.value) || 1600 })}
              />
              px
            </label>
            <label>
              scale
              <select
                aria-label="PNG scale"
                value={choice.scale}
                onChange={(e) => set({ scale: Number(e.currentTarget.value) as ExportScale })}
              >
                <option value={1}>1x</option>
                <option value={2}>2x</option>
                <option value={3}>3x</option>
              </select>
            </label>
          </>
        )}
        <label title={hasQuery ? undefined : 'Search first: this keeps the stacks the search matches'}>
          <input
            type="checkbox"
            aria-label="Only stacks with matches"
            disabled={!hasQuery}
            checked={choice.onlyMatches && hasQuery}
            onChange={(e) => set({ onlyMatches: e.currentTarget.checked })}
          />
          only stacks with matches
        </label>
        <div className="dialog-buttons">
          <button type="button" disabled={!picture} onClick={savePng}>
            Save PNG
          </button>
          <button type="button" disabled={!picture} onClick={saveSvg}>
            Save SVG
          </button>
          <button type="button" disabled={!picture} onClick={copyPng}>
            Copy PNG
          </button>
        </div>
      </div>
      <figure className="export-preview">
        {previewUrl && picture ? (
          <img src={previewUrl} alt="Preview of the exported picture" width={picture.width} height={picture.height} />
        ) : (
          <span className="error-text">{error}</span>
        )}
        <figcaption aria-label="PNG dimensions">{picture ? `${picture.pixelWidth} × ${picture.pixelHeight} px PNG` : ''}</figcaption>
      </figure>
    </section>
  );
}
