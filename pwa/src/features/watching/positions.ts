import { isWatched } from '@filamu/shared';

/** Positions this close to the start are not worth a "Resume from" (the film simply starts). */
export const RESUME_MIN_SECONDS = 5;
/** While playing, the position is saved on the phone this often (decision 0163). */
export const SAVE_EVERY_MS = 5000;

/** 43:10, or 1:43:10 past an hour. */
export function formatClock(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Where the film should offer to resume from, or null to start at the beginning (nothing saved, or watched). */
export function resumePoint(saved: { positionSeconds: number; durationSeconds: number } | undefined): number | null {
  if (!saved) return null;
  if (saved.positionSeconds < RESUME_MIN_SECONDS) return null;
  if (isWatched(saved.positionSeconds, saved.durationSeconds)) return null;
  return saved.positionSeconds;
}

export function progressPercent(positionSeconds: number, durationSeconds: number): number {
  if (durationSeconds <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((positionSeconds / durationSeconds) * 100)));
}
