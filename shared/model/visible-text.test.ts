import { describe, expect, it } from 'vitest';
import { terminalJson, terminalText, visibleText } from './visible-text';

describe('visible text', () => {
  it('writes control and bidi characters as escapes that name them, and leaves the rest', () => {
    expect(visibleText('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(visibleText('\u001b[31mred\u0007')).toBe('\\x1b[31mred\\x07');
    expect(visibleText('\u0000\u007f\u0085')).toBe('\\x00\\x7f\\x85');
    expect(visibleText('a\u202eb\u2066c\u2069')).toBe('a\\u202eb\\u2066c\\u2069');
    const plain = 'Reply.send /srv/app/node_modules/fastify/lib/reply.js — ü 日本 😀 (anonymous)';
    expect(visibleText(plain)).toBe(plain);
  });

  it('keeps line breaks in terminal text, and JSON readable as JSON', () => {
    expect(terminalText('a\u001b[2J\nb\r')).toBe('a\\x1b[2J\nb\\r');
    const json = JSON.stringify({ name: 'x\u202ey\u0085' });
    expect(terminalJson(json)).toBe('{"name":"x\\u202ey\\u0085"}');
    expect(JSON.parse(terminalJson(json)).name).toBe('x\u202ey\u0085');
  });
});
