/**
 * ffmpeg's `-progress pipe:1` output: blocks of `key=value` lines, each block ending with `progress=continue` or
 * `progress=end`. Only the keys we need are read; anything else (or a malformed line) is ignored.
 */
export interface EncodeProgress {
  /** 0–1 of the source's duration. */
  fraction: number;
  /** Seconds left at ffmpeg's current speed; null while the speed is unknown. */
  etaSeconds: number | null;
  done: boolean;
}

export class ProgressParser {
  private outSeconds = 0;
  private speed: number | null = null;
  private partial = '';

  constructor(
    private readonly durationSeconds: number,
    private readonly onBlock: (progress: EncodeProgress) => void,
  ) {}

  /** Feeds a chunk of stdout (chunks may split lines anywhere). */
  push(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    // A line is a few dozen bytes; a runaway one without newline is not progress.
    if (this.partial.length > 4096) this.partial = '';
    for (const line of lines) this.line(line.trim());
  }

  private line(line: string): void {
    const at = line.indexOf('=');
    if (at <= 0) return;
    const key = line.slice(0, at);
    const value = line.slice(at + 1);
    if (key === 'out_time_us') {
      const us = Number(value);
      if (Number.isFinite(us) && us >= 0) this.outSeconds = us / 1e6;
    } else if (key === 'speed') {
      // `1.23x`, or `N/A` before the first frames.
      const speed = Number.parseFloat(value);
      this.speed = Number.isFinite(speed) && speed > 0 ? speed : null;
    } else if (key === 'progress') {
      const done = value === 'end';
      this.onBlock(this.current(done));
    }
  }

  private current(done: boolean): EncodeProgress {
    if (done) return { fraction: 1, etaSeconds: 0, done };
    const total = this.durationSeconds > 0 ? this.durationSeconds : 0;
    const fraction = total > 0 ? Math.min(0.99, Math.max(0, this.outSeconds / total)) : 0;
    const etaSeconds =
      total > 0 && this.speed !== null ? Math.max(0, Math.round((total - this.outSeconds) / this.speed)) : null;
    return { fraction, etaSeconds, done };
  }
}
