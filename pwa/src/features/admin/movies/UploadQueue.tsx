import { useEffect, useId, useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { percentOf } from './upload/machine.ts';
import {
  cancelUpload,
  dismissUpload,
  loadUnfinishedUploads,
  provideFile,
  retryUpload,
  useUploads,
} from './upload/manager.ts';
import type { StoredUpload } from './upload/record.ts';
import { megabytes, speedText } from './thumbnail.ts';
import { attachedToPlans } from './validation.ts';

/** One row per upload item: progress with % and speed, then processing, completed, or the error with Retry. */
export function UploadQueue() {
  const items = useUploads((state) => state.items);

  useEffect(() => {
    void loadUnfinishedUploads();
  }, []);

  if (items.length === 0) return null;
  return (
    <Card>
      <CardTitle>Uploads</CardTitle>
      <ul className="mt-4 space-y-4">
        {items.map((item) => (
          <UploadRow key={item.id} item={item} />
        ))}
      </ul>
    </Card>
  );
}

function statusText(item: StoredUpload): string {
  const { state } = item;
  switch (state.status) {
    case 'queued':
      return 'Waiting to upload…';
    case 'uploading':
      return state.phase === 'thumbnail'
        ? 'Uploading the thumbnail…'
        : `${percentOf(state)}% · ${megabytes(state.sentBytes)} of ${megabytes(state.totalBytes)}${
            state.speedBps > 0 ? ` · ${speedText(state.speedBps)}` : ''
          }`;
    case 'processing':
      return 'Processing: saving the movie and attaching its plans…';
    case 'completed':
      return `Completed: ${attachedToPlans(item.form.planIds.length)}.`;
    case 'failed':
      return `Error: ${state.errorMessage ?? 'Unknown error'}`;
    case 'needs-file':
      return `Interrupted at ${percentOf(state)}%. Pick ${item.movie.name} again to carry on from there.`;
  }
}

const TONES = {
  queued: 'neutral',
  uploading: 'brand',
  processing: 'info',
  completed: 'success',
  failed: 'danger',
  'needs-file': 'neutral',
} as const;

const LABELS = {
  queued: 'Queued',
  uploading: 'Uploading',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  'needs-file': 'Paused',
} as const;

function UploadRow({ item }: { item: StoredUpload }) {
  const id = useId();
  const { state } = item;
  const [pickError, setPickError] = useState<string | null>(null);
  const done = state.status === 'completed';
  return (
    <li className="rounded-xl border border-stone-200 p-4 dark:border-stone-800" aria-labelledby={`${id}-name`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={`${id}-name`} className="min-w-0 truncate font-semibold">
          {item.form.title} <span className="font-normal text-stone-600 dark:text-stone-400">({item.movie.name})</span>
        </p>
        <Badge tone={TONES[state.status]}>{LABELS[state.status]}</Badge>
      </div>
      <ProgressBar
        className="mt-3"
        percent={percentOf(state)}
        labelledBy={`${id}-name`}
        tone={done ? 'success' : 'brand'}
      />
      <p
        className={
          state.status === 'failed'
            ? 'mt-2 text-sm font-medium text-red-700 dark:text-red-400'
            : 'mt-2 text-sm text-stone-700 dark:text-stone-300'
        }
        aria-live={state.status === 'uploading' ? 'off' : 'polite'}
      >
        {statusText(item)}
      </p>
      {state.status === 'needs-file' && (
        <div className="mt-3">
          <label htmlFor={`${id}-again`} className="mb-1.5 block text-sm font-medium">
            Pick {item.movie.name} again
          </label>
          <input
            id={`${id}-again`}
            type="file"
            accept="video/*"
            aria-describedby={pickError ? `${id}-again-error` : undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) setPickError(provideFile(item.id, file));
            }}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-stone-100 file:px-4 file:font-semibold file:text-stone-900 dark:file:bg-stone-800 dark:file:text-stone-100"
          />
          {pickError && (
            <p
              id={`${id}-again-error`}
              role="alert"
              className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400"
            >
              {pickError}
            </p>
          )}
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {state.status === 'failed' && (
          <Button size="sm" onClick={() => retryUpload(item.id)}>
            Retry
          </Button>
        )}
        {done ? (
          <Button size="sm" variant="outline" onClick={() => dismissUpload(item.id)}>
            Dismiss
          </Button>
        ) : (
          state.status !== 'processing' && (
            <Button size="sm" variant="outline" onClick={() => void cancelUpload(item.id)}>
              Cancel
            </Button>
          )
        )}
      </div>
    </li>
  );
}
