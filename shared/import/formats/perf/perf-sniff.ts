/**
 * Telling `perf script` text from other text (see perf-script.ts): a sample header followed by a
 * frame line, a few one-line samples (`perf script` without `-g`), perf's own banner, or headers
 * in a file named after perf. A binary perf.data file is claimed too, only to say how to turn it
 * into text.
 */
import { readFrame } from './perf-frame-line';
import { isSpace, readHeader } from './perf-header';

const HEX_ADDRESS = /^\s*[0-9a-fA-F]+\s/;

function looksLikeHeader(line: string): boolean {
  if (line === '' || isSpace(line.charCodeAt(0)) || line.startsWith('#')) return false;
  const h = readHeader(line);
  return h !== undefined && (h.event !== undefined || !Number.isNaN(h.time));
}

function looksLikeFrame(line: string): boolean {
  return HEX_ADDRESS.test(line) && readFrame(line, 0, { sym: 0, dso: 0, close: 0, damaged: false });
}

export function isPerfData(head: string): boolean {
  return head.startsWith('PERFILE2') || head.startsWith('PERFFILE');
}

export function sniffPerfScript(head: string, fileName: string): boolean {
  // perf.data itself is claimed only to say how to turn it into text.
  if (isPerfData(head)) return true;
  const first = head.trimStart().charAt(0);
  if (first === '{' || first === '[' || first === '<') return false;
  const lines = head.split('\n', 2000);
  let perfBanner = false;
  let headers = 0;
  let oneLiners = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.startsWith('#')) {
      if (/^# (perf version|captured on)\b/.test(line)) perfBanner = true;
      continue;
    }
    if (!looksLikeHeader(line)) continue;
    headers++;
    const next = lines[i + 1]?.replace(/\r$/, '');
    if (next !== undefined && looksLikeFrame(next)) return true;
    const h = readHeader(line)!;
    if (h.inlineFrame !== undefined && looksLikeFrame(line.slice(h.inlineFrame)) && ++oneLiners >= 2) return true;
  }
  if (perfBanner && lines[0]!.startsWith('# ========')) return true;
  return headers > 0 && /perf/i.test(fileName) && !/\.(json|folded|collapsed)$/i.test(fileName);
}
