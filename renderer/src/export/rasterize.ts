/**
 * The exported SVG as a PNG, in the browser: the document is loaded as an image from a blob URL
 * (the CSP allows `img-src blob:`; an SVG image loads no external resources, and a same-origin
 * blob does not taint the canvas) and drawn onto a canvas `scale` times its size. The SVG's own
 * width and height are scaled too, so that the vector drawing is rasterized at the final
 * resolution rather than drawn at 1x and stretched.
 */

export type ExportScale = 1 | 2 | 3;

/** Chromium's canvas limits: a side of at most 32,767 pixels and an area of at most 16,384². */
const MAX_SIDE = 32_767;
const MAX_AREA = 16_384 * 16_384;

/** The largest scale up to `requested` at which a width×height picture fits a canvas; 0 when none does. */
export function fitScale(width: number, height: number, requested: number): number {
  const bySide = MAX_SIDE / Math.max(width, height);
  const byArea = Math.sqrt(MAX_AREA / (width * height));
  const s = Math.min(requested, bySide, byArea);
  return s >= 1 ? Math.floor(s) : s > 0.25 ? s : 0;
}

/** The SVG with its root width and height multiplied (the viewBox keeps the drawing's coordinates). */
function scaledSvg(svg: string, width: number, height: number): string {
  return svg.replace(
    /<svg\b([^>]*?)\swidth="[^"]*"\s+height="[^"]*"/,
    `<svg$1 width="${width}" height="${height}" preserveAspectRatio="none"`,
  );
}

export interface RasterResult {
  blob: Blob;
  width: number;
  height: number;
  /** the scale used: lower than asked when the picture would exceed the canvas limits */
  scale: number;
}

export async function rasterizeSvg(svg: string, width: number, height: number, scale: ExportScale): Promise<RasterResult> {
  const s = fitScale(width, height, scale);
  if (s === 0) throw new Error(`the picture is too large to rasterize (${width}×${height}); export it as SVG`);
  return { ...(await drawPng(svg, Math.round(width * s), Math.round(height * s))), scale: s };
}

/** The SVG drawn at exactly `pixelWidth`×`pixelHeight` pixels (a preset's size). */
export async function rasterizeSvgTo(svg: string, width: number, pixelWidth: number, pixelHeight: number): Promise<RasterResult> {
  if (fitScale(pixelWidth, pixelHeight, 1) < 1) throw new Error(`the picture is too large to rasterize (${pixelWidth}×${pixelHeight})`);
  return { ...(await drawPng(svg, pixelWidth, pixelHeight)), scale: pixelWidth / width };
}

async function drawPng(svg: string, w: number, h: number): Promise<{ blob: Blob; width: number; height: number }> {
  const url = URL.createObjectURL(new Blob([scaledSvg(svg, w, h)], { type: 'image/svg+xml' }));
  try {
    const img = new Image(w, h);
    img.src = url;
    await img.decode().catch(() => {
      throw new Error('the exported SVG could not be drawn as an image');
    });
    let blob: Blob | null;
    if (typeof OffscreenCanvas !== 'undefined') {
      const canvas = new OffscreenCanvas(w, h);
      canvas.getContext('2d')!.drawImage(img, 0, 0, w, h);
      blob = await canvas.convertToBlob({ type: 'image/png' });
    } else {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      canvas.getContext('2d')!.drawImage(img, 0, 0, w, h);
      blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    }
    if (!blob) throw new Error('the browser could not encode the PNG (out of memory?)');
    return { blob, width: w, height: h };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Bytes for `saveFile` (which takes a Uint8Array or a string). */
export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * Puts a PNG on the clipboard. Needs a focused document (Electron's window or the browser tab) and,
 * in a browser, a user gesture: call it from the click or shortcut handler, with the blob still
 * being made — Chromium accepts a promise here and keeps the gesture while it settles, where an
 * `await` before the call could let it expire.
 */
export async function copyPngToClipboard(blob: Blob | Promise<Blob>): Promise<void> {
  if (!navigator.clipboard?.write || typeof ClipboardItem === 'undefined')
    throw new Error('this window cannot put images on the clipboard');
  await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
}

/** Puts the SVG source on the clipboard as text (pasting into a design tool or a Markdown file). */
export async function copySvgToClipboard(svg: string): Promise<void> {
  await navigator.clipboard.writeText(svg);
}
