import { KINAYUGANDA_FIRST, type MovieAccess } from '@filamu/shared';
import type { LocalDownload } from './engine/record.ts';

/** What a movie's download button shows and does, from the server's verdict and the bytes on this device. */
export type MovieAction =
  | { kind: 'download'; label: 'Download Now' }
  | { kind: 'checking'; label: 'Checking...' }
  | { kind: 'downloading'; label: string; percent: number; waiting: string | null }
  | { kind: 'resume'; label: 'Resume'; percent: number; reason: string | null }
  /** The file is complete on this phone: it plays offline. */
  | { kind: 'on-phone'; label: 'On this phone' }
  /** Downloaded before (on another phone, or deleted here): the file is not here; a re-download brings it back. */
  | { kind: 'not-on-phone'; label: 'Not on this phone' }
  | { kind: 'locked'; label: 'Download Locked'; reason: string }
  | { kind: 'subscribe'; label: 'Subscribe Now' }
  | { kind: 'not-in-plan'; label: 'Not in your plan' };

interface ServerDownload {
  status: string;
  downloadedBytes: number;
  totalBytes: number;
}

export interface MovieActionInput {
  access: MovieAccess;
  size: number;
  /** The caller's download of the movie as the server knows it (any device). */
  serverDownload: ServerDownload | null;
  /** This device's record, if any. */
  local: LocalDownload | undefined;
  /** A grant request is in flight. */
  checking: boolean;
  /** Bytes on disk right now (live, ahead of the last commit). */
  received?: number;
}

export function percentOf(bytes: number, size: number): number {
  if (size <= 0) return 0;
  return Math.min(100, Math.floor((bytes / size) * 100));
}

const WAITING: Partial<Record<LocalDownload['state'], string>> = {
  'waiting-network': 'Waiting for network',
  'needs-url': 'Reconnecting',
  queued: 'Queued',
  verifying: 'Finishing',
};

export function movieAction(input: MovieActionInput): MovieAction {
  const { access, local, size } = input;
  const onDevice = local && local.state !== 'cancelled' ? local : undefined;
  if (onDevice?.state === 'complete') return { kind: 'on-phone', label: 'On this phone' };
  if (input.checking) return { kind: 'checking', label: 'Checking...' };
  if (onDevice) {
    const percent = percentOf(Math.max(onDevice.committed, input.received ?? 0), onDevice.size || size);
    switch (onDevice.state) {
      case 'paused':
      case 'needs-space':
        return { kind: 'resume', label: 'Resume', percent, reason: onDevice.message };
      case 'failed':
        // A refusal (subscription ended, already downloaded elsewhere) shows the server's verdict instead.
        if (access === 'downloadable') return { kind: 'resume', label: 'Resume', percent, reason: onDevice.message };
        break;
      default: {
        // A waiting download says what it waits for, not "Downloading... 0%" beside "Queued".
        const waiting = WAITING[onDevice.state] ?? null;
        const label = waiting ? (percent > 0 ? `${waiting} · ${percent}%` : waiting) : `Downloading... ${percent}%`;
        return { kind: 'downloading', label, percent, waiting };
      }
    }
  }
  switch (access) {
    case 'subscription_required':
      return { kind: 'subscribe', label: 'Subscribe Now' };
    case 'downloaded':
      return { kind: 'not-on-phone', label: 'Not on this phone' };
    case 'locked':
      return { kind: 'locked', label: 'Download Locked', reason: KINAYUGANDA_FIRST };
    case 'not_in_plan':
      return { kind: 'not-in-plan', label: 'Not in your plan' };
    case 'downloadable': {
      const partial = input.serverDownload;
      if (partial && partial.status !== 'completed' && partial.downloadedBytes > 0) {
        return {
          kind: 'resume',
          label: 'Resume',
          percent: percentOf(partial.downloadedBytes, partial.totalBytes || size),
          reason: null,
        };
      }
      return { kind: 'download', label: 'Download Now' };
    }
  }
}
