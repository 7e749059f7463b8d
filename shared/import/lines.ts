/**
 * Line-by-line reading of UTF-8 chunks for the text formats. Lines are handed to a callback
 * (no per-line promise), without their `\n` or `\r\n`; numbering is 1-based.
 */
import { ImportError } from './errors';

/** Longest line accepted; a longer one is not a profile line and would only exhaust memory. */
const MAX_LINE = 64 * 1024 * 1024;

export async function forEachLine(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  onLine: (line: string, lineNo: number) => void,
): Promise<number> {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lineNo = 0;
  for await (const chunk of chunks) {
    const text = carry + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(text.slice(start, end), ++lineNo);
      start = nl + 1;
    }
    carry = text.slice(start);
    if (carry.length > MAX_LINE)
      throw new ImportError({ file, line: lineNo + 1, message: `line is longer than ${MAX_LINE} characters` });
  }
  carry += decoder.decode();
  if (carry.length > 0) {
    onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, ++lineNo);
  }
  return lineNo;
}
