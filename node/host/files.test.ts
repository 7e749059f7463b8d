import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK } from '../../shared/ipc/contract';
import { InvalidArgumentError, STREAM_CHUNK, UnknownTokenError, checkChunkRange, createFileRegistry } from './files';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-files-'));
  writeFileSync(join(dir, 'a.cpuprofile'), 'abcdefghij');
  mkdirSync(join(dir, '1234.0x'));
  writeFileSync(join(dir, '1234.0x', 'meta.json'), '{}');
  writeFileSync(join(dir, '1234.0x', 'flamegraph.html'), '<html>');
  mkdirSync(join(dir, '1234.0x', 'nested'));
  symlinkSync('/etc/passwd', join(dir, '1234.0x', 'link.json'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkChunkRange', () => {
  it('accepts non-negative integers and caps the length at MAX_CHUNK', () => {
    expect(checkChunkRange(0, 10)).toEqual({ offset: 0, length: 10 });
    expect(checkChunkRange(5, MAX_CHUNK * 4)).toEqual({ offset: 5, length: MAX_CHUNK });
  });
  it.each([
    ['negative offset', -1, 10],
    ['NaN offset', Number.NaN, 10],
    ['huge offset', 2 ** 60, 10],
    ['infinite offset', Number.POSITIVE_INFINITY, 10],
    ['fractional offset', 1.5, 10],
    ['string offset', '0', 10],
    ['negative length', 0, -5],
    ['NaN length', 0, Number.NaN],
    ['missing length', 0, undefined],
  ])('rejects %s', (_name, offset, length) => {
    expect(() => checkChunkRange(offset, length)).toThrow(InvalidArgumentError);
  });
});

describe('file registry', () => {
  it('describes a file and reads it in chunks', async () => {
    const reg = createFileRegistry();
    const item = await reg.choose(join(dir, 'a.cpuprofile'));
    expect(item.kind).toBe('file');
    if (item.kind !== 'file') return;
    expect(item.file).toMatchObject({ name: 'a.cpuprofile', path: join(dir, 'a.cpuprofile'), size: 10 });
    expect(item.file.token).toMatch(/^[\w-]{20,}$/);
    const text = async (o: number, l: number): Promise<string> => Buffer.from(await reg.readChunk(item.file.token, o, l)).toString();
    expect(await text(0, 4)).toBe('abcd');
    expect(await text(8, 100)).toBe('ij');
    expect(await text(10, 5)).toBe('');
    expect(await text(1_000_000, 5)).toBe('');
  });

  it('returns a buffer of exactly the bytes read (no pooled backing store)', async () => {
    const reg = createFileRegistry();
    const item = await reg.choose(join(dir, 'a.cpuprofile'));
    if (item.kind !== 'file') throw new Error('expected a file');
    const chunk = await reg.readChunk(item.file.token, 2, 3);
    expect(chunk.byteLength).toBe(3);
    expect(chunk.buffer.byteLength).toBe(3);
  });

  it('streams a whole file in pieces of STREAM_CHUNK bytes', async () => {
    const path = join(dir, 'big.folded');
    const size = 2 * STREAM_CHUNK + 12345;
    writeFileSync(path, Buffer.alloc(size, 'a'));
    const reg = createFileRegistry();
    const item = await reg.choose(path);
    const token = item.kind === 'file' ? item.file.token : '';
    const opened = await reg.openStream(token);
    expect(opened.size).toBe(size);
    const pieces: number[] = [];
    for await (const piece of opened.stream as AsyncIterable<Buffer>) pieces.push(piece.length);
    expect(pieces).toEqual([STREAM_CHUNK, STREAM_CHUNK, 12345]);
    expect(STREAM_CHUNK).toBe(4 << 20);
  });

  it('lists a folder’s regular files only, sorted, not following symlinks', async () => {
    const reg = createFileRegistry();
    const item = await reg.choose(join(dir, '1234.0x'));
    expect(item.kind).toBe('folder');
    if (item.kind !== 'folder') return;
    expect(item.folder.name).toBe('1234.0x');
    expect(item.folder.files.map((f) => f.name)).toEqual(['flamegraph.html', 'meta.json']);
    expect(reg.has(item.folder.files[0]!.token)).toBe(true);
  });

  it('issues one token per path and unguessable tokens across registries', async () => {
    const a = createFileRegistry();
    const b = createFileRegistry();
    const p = join(dir, 'a.cpuprofile');
    const t1 = ((await a.choose(p)) as { file: { token: string } }).file.token;
    const t2 = ((await a.choose(p)) as { file: { token: string } }).file.token;
    const t3 = ((await b.choose(p)) as { file: { token: string } }).file.token;
    expect(t1).toBe(t2);
    expect(t3).not.toBe(t1);
    await expect(b.readChunk(t1, 0, 1)).rejects.toThrow(UnknownTokenError);
  });

  it('rejects tokens it never issued and malformed ranges', async () => {
    const reg = createFileRegistry();
    const item = await reg.choose(join(dir, 'a.cpuprofile'));
    if (item.kind !== 'file') throw new Error('expected a file');
    await expect(reg.readChunk('nope', 0, 1)).rejects.toThrow(UnknownTokenError);
    await expect(reg.readChunk(join(dir, 'a.cpuprofile'), 0, 1)).rejects.toThrow(UnknownTokenError);
    await expect(reg.readChunk(42, 0, 1)).rejects.toThrow(UnknownTokenError);
    await expect(reg.readChunk(item.file.token, -1, 1)).rejects.toThrow(InvalidArgumentError);
    await expect(reg.readChunk(item.file.token, Number.NaN, 1)).rejects.toThrow(InvalidArgumentError);
    await expect(reg.readChunk(item.file.token, 2 ** 60, 1)).rejects.toThrow(InvalidArgumentError);
    expect(reg.has('nope')).toBe(false);
    expect(reg.has(undefined)).toBe(false);
  });

  it('reports paths that cannot be opened without failing the others', async () => {
    const reg = createFileRegistry();
    const { items, errors } = await reg.chooseAll([join(dir, 'missing.cpuprofile'), join(dir, 'a.cpuprofile')]);
    expect(items).toHaveLength(1);
    expect(errors).toEqual([`cannot open ${join(dir, 'missing.cpuprofile')}: no such file or directory`]);
  });
});
