import { expect } from 'vitest';

/**
 * A small XML tokenizer: checks that tags balance and attributes are quoted, that no raw `<` or
 * `&` hides in text, and returns the elements in document order with their text and attributes.
 */
export interface El {
  name: string;
  attrs: Record<string, string>;
  text: string;
  path: string[];
}

export function parseXml(xml: string): El[] {
  const els: El[] = [];
  const open: El[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const re = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(body))) {
    last = re.lastIndex;
    if (m[5] !== undefined) {
      expect(m[5]).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
      if (open.length > 0) open[open.length - 1]!.text += m[5];
      else expect(m[5].trim()).toBe('');
      continue;
    }
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      const top = open.pop();
      expect(top?.name, `closing </${name}>`).toBe(name);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
    const el: El = { name: name!, attrs, text: '', path: open.map((o) => o.attrs.class ?? o.name) };
    els.push(el);
    if (!selfClose) open.push(el);
  }
  expect(last, 'the whole document is tokenized').toBe(body.length);
  expect(open).toEqual([]);
  return els;
}

export const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
