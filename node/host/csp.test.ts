/**
 * The page carries the policy twice: as a header on every response (the flamelens:// handler,
 * the session's onHeadersReceived, the loopback server) and in a `<meta>` of the page itself, which
 * holds wherever the page is loaded from — a dev server, a copy of out/renderer opened by hand,
 * a path where a header got lost. The two must say the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CSP_DIRECTIVES } from './csp';

/** The policies of every `<meta http-equiv="Content-Security-Policy">` in an HTML page. */
function metaPolicies(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']content-security-policy["']/i.test(tag)) continue;
    const content = /content\s*=\s*"([^"]*)"/i.exec(tag) ?? /content\s*=\s*'([^']*)'/i.exec(tag);
    if (content) out.push(content[1]!);
  }
  return out;
}

const directives = (policy: string) =>
  policy
    .split(';')
    .map((d) => d.trim().replace(/\s+/g, ' '))
    .filter((d) => d !== '');

describe('the <meta> Content-Security-Policy of renderer/index.html', () => {
  const html = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');
  const metas = metaPolicies(html);

  it('is there, once, before any script', () => {
    expect(metas).toHaveLength(1);
    const meta = html.search(/<meta\b[^>]*http-equiv\s*=\s*["']content-security-policy/i);
    const script = html.search(/<script\b/i);
    expect(meta).toBeGreaterThan(-1);
    expect(script === -1 || meta < script).toBe(true);
  });

  it('holds every directive of the header policy (frame-ancestors aside: a <meta> cannot set it)', () => {
    const meta = directives(metas[0] ?? '');
    for (const d of CSP_DIRECTIVES) if (!d.startsWith('frame-ancestors')) expect(meta).toContain(d);
  });

  it('allows nothing the header policy does not', () => {
    for (const d of directives(metas[0] ?? '')) {
      expect(d).not.toMatch(/'unsafe-eval'|'unsafe-hashes'|https?:|\*|'strict-dynamic'/);
      const name = d.split(' ')[0]!;
      const header = CSP_DIRECTIVES.find((h) => h.split(' ')[0] === name);
      // a directive the header lacks falls back to its default-src 'self'
      expect(header ?? `${name} 'self'`).toBe(d);
    }
  });
});
