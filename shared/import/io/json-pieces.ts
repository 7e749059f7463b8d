/** The bytes of a JSON stream kept while an element or value is open across chunks. */

/** Bytes kept from earlier chunks, addressed by absolute file offset. */
export class Pieces {
  private list: { start: number; bytes: Uint8Array }[] = [];
  /**
   * Two decoders: Node's TextDecoder leaves its fast UTF-8 path for good once asked to decode
   * with `stream: true` (a third of the time of the decoding), so only text that spans pieces,
   * rare, goes through the streaming one.
   */
  private readonly whole = new TextDecoder('utf-8');
  private readonly streaming = new TextDecoder('utf-8');
  add(start: number, bytes: Uint8Array): void {
    this.list.push({ start, bytes });
  }
  /** Drops bytes before `offset`. */
  trim(offset: number): void {
    while (this.list.length > 0) {
      const p = this.list[0]!;
      if (p.start + p.bytes.length <= offset) this.list.shift();
      else break;
    }
  }
  clear(): void {
    this.list = [];
  }
  /** The earliest chunk whose bytes are still kept (every chunk read before it is let go), if any. */
  oldest(): Uint8Array | undefined {
    return this.list[0]?.bytes;
  }
  /** Decodes bytes [from, to) as UTF-8. */
  text(from: number, to: number): string {
    const last = this.list[this.list.length - 1];
    if (last !== undefined && from >= last.start) return this.whole.decode(last.bytes.subarray(from - last.start, to - last.start));
    let out = '';
    for (const p of this.list) {
      const s = Math.max(from, p.start);
      const e = Math.min(to, p.start + p.bytes.length);
      if (s < e) out += this.streaming.decode(p.bytes.subarray(s - p.start, e - p.start), { stream: true });
    }
    return out + this.streaming.decode();
  }
}
