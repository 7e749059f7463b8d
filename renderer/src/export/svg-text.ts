/**
 * Text and colour helpers for the exported SVG, pure string work so that export runs headless and
 * in unit tests. Widths are estimated from the font size: the picture is drawn without a DOM to
 * measure with, and an estimate on the wide side only ever shortens a label a little early.
 */

export const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/**
 * Characters XML 1.0 does not allow at all (C0 controls but tab and newlines, lone surrogates,
 * U+FFFE/U+FFFF). Frame names come from arbitrary files; one such character would make the whole
 * document ill-formed, and the browser would refuse to draw the image.
 */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an element's content or an attribute value: escaped, with characters XML forbids replaced. */
export function esc(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** A coordinate or length with at most two decimals (keeps the file small, loses nothing visible). */
export function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** Estimated advance of one character; generous for proportional sans fonts, bold a little wider. */
export function charWidth(fontSize: number, bold = false): number {
  return fontSize * (bold ? 0.64 : 0.6);
}

export function textWidth(s: string, fontSize: number, bold = false): number {
  return [...s].length * charWidth(fontSize, bold);
}

/** `s` cut to fit `width` with an ellipsis; '' when not even two characters and the ellipsis fit. */
export function fitText(s: string, width: number, fontSize: number, bold = false): string {
  const chars = [...s];
  const max = Math.floor(width / charWidth(fontSize, bold));
  if (chars.length <= max) return s;
  if (max < 3) return '';
  return `${chars.slice(0, max - 1).join('')}…`;
}

/** Word-wrapped lines no wider than `width`; overlong words are broken; at most `maxLines` (the last one ellipsized). */
export function wrapText(s: string, width: number, fontSize: number, maxLines = Infinity, bold = false): string[] {
  const perLine = Math.max(1, Math.floor(width / charWidth(fontSize, bold)));
  const lines: string[] = [];
  for (const paragraph of s.split(/\r?\n/)) {
    let line: string[] = [];
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      let chars = [...word];
      const need = line.length === 0 ? chars.length : line.length + 1 + chars.length;
      if (need <= perLine) {
        line = line.length === 0 ? chars : [...line, ' ', ...chars];
        continue;
      }
      if (line.length > 0) lines.push(line.join(''));
      while (chars.length > perLine) {
        lines.push(chars.slice(0, perLine).join(''));
        chars = chars.slice(perLine);
      }
      line = chars;
    }
    lines.push(line.join(''));
  }
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    const last = [...kept[maxLines - 1]!];
    kept[maxLines - 1] = `${last.slice(0, Math.min(last.length, perLine - 1)).join('')}…`;
    return kept;
  }
  return lines;
}

function hex2(v: number): string {
  return Math.round(Math.min(255, Math.max(0, v)))
    .toString(16)
    .padStart(2, '0');
}

function hslToHex(h: number, s: number, l: number): string {
  s /= 100;
  l /= 100;
  const a = s * Math.min(l, 1 - l);
  const f = (k0: number) => {
    const k = (k0 + h / 30) % 12;
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return `#${hex2(f(0))}${hex2(f(8))}${hex2(f(4))}`;
}

/**
 * A CSS colour as `#rrggbb` where it is one of the forms the app produces (`hsl(14 80% 58%)`,
 * `rgb(1,2,3)`, `#abc`), so that the exported SVG shows the same colours in viewers that know
 * only SVG 1.1 colour syntax. Other values pass through (escaped by the caller).
 */
export function svgColor(c: string): string {
  const s = c.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(s)) return s;
  if (/^#[0-9a-f]{3}$/.test(s)) return `#${s[1]}${s[1]}${s[2]}${s[2]}${s[3]}${s[3]}`;
  const m = /^(hsl|rgb)a?\(\s*([-\d.]+)(?:deg)?[\s,]+([-\d.]+)%?[\s,]+([-\d.]+)%?\s*(?:[,/][^)]*)?\)$/.exec(s);
  if (!m) return c;
  const [a, b, d] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (![a, b, d].every(Number.isFinite)) return c;
  return m[1] === 'hsl' ? hslToHex(((a % 360) + 360) % 360, b, d) : `#${hex2(a)}${hex2(b)}${hex2(d)}`;
}

/** `YYYY-MM-DD HH:MM` in local time: what a reader of the picture expects next to "exported". */
export function formatStamp(d: Date): string {
  const p = (v: number) => String(v).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export const INK = '#111827';
export const MUTED = '#57534e';

/** A line of text in the picture's header, a pane's header or the notes. */
export interface Line {
  text: string;
  size: number;
  color: string;
  bold?: boolean;
}

export const lineHeight = (l: Line) => Math.round(l.size * 1.4);
export const linesHeight = (ls: Line[]) => ls.reduce((s, l) => s + lineHeight(l), 0);

/** The lines one under the other from (x, y), top down. */
export function drawLines(lines: Line[], x: number, y: number): string {
  let out = '';
  for (const l of lines) {
    y += lineHeight(l);
    if (l.text === '') continue;
    out += `<text x="${n(x)}" y="${n(y - l.size * 0.35)}" font-size="${l.size}" fill="${l.color}"${l.bold ? ' font-weight="600"' : ''}>${esc(l.text)}</text>`;
  }
  return out;
}

/**
 * Parts joined with " · " and wrapped between parts where a line is full ("2.2 s busy CPU" stays
 * whole), a part longer than a line wrapped by words; at most `maxLines`.
 */
export function wrapParts(parts: readonly string[], width: number, fontSize: number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const joined = line === '' ? part : `${line} · ${part}`;
    if (textWidth(joined, fontSize) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(`${line} ·`);
    const wrapped = wrapText(part, width, fontSize);
    lines.push(...wrapped.slice(0, -1));
    line = wrapped.at(-1) ?? '';
  }
  if (line !== '') lines.push(line);
  return lines.length > maxLines ? wrapText(lines.join(' '), width, fontSize, maxLines) : lines;
}
