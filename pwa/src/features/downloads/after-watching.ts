import { formatBytes } from '@filamu/shared';
import { toast } from '../../lib/toast.ts';
import type { LocalDownload } from './engine/record.ts';
import { deleteFromDevice } from './actions.ts';
import { downloadSettings } from './settings.ts';
import { removesOnLeaving, type PlayerExit } from './smart-storage.ts';
import { downloadsT } from './messages.ts';

/**
 * "Delete after watching" (decision 0174), run as the person leaves the Play screen: a film played past 90 % leaves
 * this phone, and a toast says so and how much space came back. Never while it plays: the end credits, a scene
 * watched again or a pause near the end keep the file until the player closes.
 */
export async function removeAfterWatching(record: LocalDownload, exit: PlayerExit): Promise<void> {
  if (!removesOnLeaving(downloadSettings().deleteWatched, exit)) return;
  try {
    await deleteFromDevice(record.movieId);
    toast.success(
      downloadsT('downloads.watched.removed'),
      downloadsT('downloads.watched.removed.text', { title: record.title, bytes: formatBytes(record.size) }),
    );
  } catch {
    toast.error(
      downloadsT('downloads.watched.failed'),
      downloadsT('downloads.watched.failed.text', { title: record.title }),
    );
  }
}
