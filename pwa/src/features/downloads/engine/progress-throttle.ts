/** Product §9: tell the server when more than 5 s passed, progress rose more than 5 points, or more than 5 MB arrived. */
const REPORT_EVERY_MS = 5000;
const REPORT_EVERY_POINTS = 5;
const REPORT_EVERY_BYTES = 5 * 1024 * 1024;

export class ProgressThrottle {
  private lastBytes: number;
  private lastAt: number;

  constructor(
    private readonly size: number,
    startBytes: number,
    startAt: number,
  ) {
    this.lastBytes = startBytes;
    this.lastAt = startAt;
  }

  /** True when `bytes` at `now` is worth a report; the report is then taken as sent. */
  take(bytes: number, now: number): boolean {
    if (bytes <= this.lastBytes) return false;
    const points = this.size > 0 ? ((bytes - this.lastBytes) / this.size) * 100 : 0;
    const due =
      now - this.lastAt > REPORT_EVERY_MS ||
      points > REPORT_EVERY_POINTS ||
      bytes - this.lastBytes > REPORT_EVERY_BYTES;
    if (due) {
      this.lastBytes = bytes;
      this.lastAt = now;
    }
    return due;
  }
}
