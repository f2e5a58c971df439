import { AppError } from '../../http/errors.ts';
import { FrameTooLargeError, NotAVideoError, type ProbeResult } from './transcoder.ts';
import type { Logger } from 'pino';
import type { ObjectStorage } from '../storage/storage.ts';
import type { TranscodeHub } from './hub.ts';

/** A probe of a file already sniffed as a video takes well under this, even over S3. */
const PROBE_LINK_SECONDS = 3600;

const NOT_PLAYABLE =
  'The movie file could not be read as a video (it may be damaged, or have sound only). Export it again as MP4 and upload it.';

/**
 * What the uploaded movie really is, read by ffprobe before the movie is saved: a damaged file, an audio file, one
 * without a picture, a playlist or a picture larger than 4K (decision 0206) is refused here rather than found out by
 * the encoder. Null without ffmpeg (the file was
 * only sniffed; originals only).
 */
export async function probeUpload(
  deps: { storage: ObjectStorage; transcode: TranscodeHub; logger: Logger },
  key: string,
): Promise<ProbeResult | null> {
  const { transcoder } = deps.transcode;
  if (!transcoder) return null;
  const input = await deps.storage.transcodeInput(key, PROBE_LINK_SECONDS);
  try {
    return await transcoder.probe(input);
  } catch (error) {
    if (error instanceof NotAVideoError) {
      deps.logger.info({ key, reason: error.message }, 'movie upload refused: not a playable video');
      throw new AppError('bad_request', error instanceof FrameTooLargeError ? error.message : NOT_PLAYABLE);
    }
    throw error;
  }
}
