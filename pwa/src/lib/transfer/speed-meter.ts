/**
 * Bytes per second over a sliding window of samples, so one stalled request does not read as zero. Shared by
 * the download engine and the admin's uploads.
 */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 5000) {}

  /** `bytes` is the running total moved so far, at time `at` (ms); returns the current speed. */
  sample(at: number, bytes: number): number {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    return elapsed > 0 ? Math.max(0, ((bytes - first.bytes) * 1000) / elapsed) : 0;
  }

  reset(): void {
    this.samples = [];
  }
}
