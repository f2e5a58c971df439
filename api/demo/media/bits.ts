/**
 * MSB-first bit writer for H.264 RBSP syntax elements (ITU-T H.264 §7.2):
 * u(n) fixed-length, ue(v)/se(v) Exp-Golomb (§9.1), and rbsp_trailing_bits (§7.3.2.11).
 */
export class BitWriter {
  private bytes: Uint8Array;
  private byteLength = 0;
  private pending = 0; // bits not yet flushed, left-aligned in the low `pendingCount` bits
  private pendingCount = 0;

  constructor(initialCapacity = 64) {
    this.bytes = new Uint8Array(initialCapacity);
  }

  get isByteAligned(): boolean {
    return this.pendingCount === 0;
  }

  /** u(n): `value` as an unsigned `bitCount`-bit number, 0 < bitCount <= 32. */
  u(bitCount: number, value: number): this {
    for (let shift = bitCount - 1; shift >= 0; shift--) this.bit((value >>> shift) & 1);
    return this;
  }

  flag(value: boolean): this {
    return this.bit(value ? 1 : 0);
  }

  /** ue(v): Exp-Golomb — (leading zeros) then (value + 1) in binary (§9.1). */
  ue(value: number): this {
    const codeNum = value + 1;
    const leadingZeros = 31 - Math.clz32(codeNum);
    return this.u(leadingZeros, 0).u(leadingZeros + 1, codeNum);
  }

  /** se(v): signed Exp-Golomb, k > 0 → 2k − 1, k <= 0 → −2k (§9.1.1, Table 9-3). */
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** Whole bytes, e.g. PCM samples; the writer must be byte-aligned. */
  writeBytes(source: ArrayLike<number>): this {
    if (!this.isByteAligned) throw new Error('writeBytes needs a byte-aligned writer');
    this.reserve(source.length);
    this.bytes.set(source, this.byteLength);
    this.byteLength += source.length;
    return this;
  }

  /** Zero bits up to the next byte boundary (e.g. pcm_alignment_zero_bit, §7.3.5). */
  alignWithZeros(): this {
    while (!this.isByteAligned) this.bit(0);
    return this;
  }

  /** rbsp_trailing_bits(): a stop bit of 1, then zeros to the byte boundary (§7.3.2.11). */
  trailingBits(): this {
    return this.bit(1).alignWithZeros();
  }

  /** The written bytes; the writer must be byte-aligned. */
  toBytes(): Uint8Array {
    if (!this.isByteAligned) throw new Error('bitstream is not byte-aligned');
    return this.bytes.slice(0, this.byteLength);
  }

  private bit(bit: number): this {
    this.pending = (this.pending << 1) | bit;
    if (++this.pendingCount === 8) {
      this.reserve(1);
      this.bytes[this.byteLength++] = this.pending;
      this.pending = 0;
      this.pendingCount = 0;
    }
    return this;
  }

  private reserve(extra: number): void {
    if (this.byteLength + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.byteLength + extra));
    grown.set(this.bytes.subarray(0, this.byteLength));
    this.bytes = grown;
  }
}
