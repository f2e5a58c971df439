/** Display rules of the movie pages (product §9). */

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Product §9: movie sizes in GB (bytes / 1024³) with two decimals: `1.50 GB`. */
export function formatGb(bytes: number): string {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes / GIB : 0;
  return `${value.toFixed(2)} GB`;
}

/** A VJ's name as people say it: "VJ Ice P" stays, a bare "Junior" becomes "VJ Junior". */
export function vjName(vj: string): string {
  const name = vj.trim();
  return /^vj\b/i.test(name) ? name : `VJ ${name}`;
}

/** The VJ as a label: names usually carry the prefix already ('VJ Junior'); others get it ('VJ: N/A'). */
export function vjLabel(vj: string): string {
  const name = vj.trim() || 'N/A';
  return /^vj\b/i.test(name) ? name : `VJ: ${name}`;
}

/** A transfer speed: `1.2 MB/s`, or `350 KB/s` below 0.1 MB/s. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond < 0.1 * MIB) return `${Math.max(1, Math.round(bytesPerSecond / 1024))} KB/s`;
  return `${(bytesPerSecond / MIB).toFixed(1)} MB/s`;
}

/** A rough duration for people: 'less than a minute', '12 min', '1 h 5 min', '3 h'. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${minutes} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** The estimate as a sentence start: 'Less than a minute', 'About 35 min'. */
export function formatEstimate(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'Unknown';
  return seconds < 60 ? 'Less than a minute' : `About ${formatDuration(seconds)}`;
}
