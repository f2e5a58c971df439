import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { MovieList } from './MovieList.tsx';
import { useAdminMovies, useAdminSystemStatus } from './queries.ts';
import { encryptionBacklog } from './renditions.ts';
import { UploadForms } from './UploadForm.tsx';
import { UploadQueue } from './UploadQueue.tsx';

/** Without ffmpeg on the server no sizes are made: the operator should know why every movie says "Original only". */
function TranscoderNotice() {
  const status = useAdminSystemStatus();
  const transcoder = status.data?.transcoder;
  if (!transcoder || transcoder.available) return null;
  return (
    <p
      role="status"
      data-testid="transcoder-missing"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <strong className="font-semibold">
        ffmpeg is not installed on this server: movies are offered as uploaded (Original only).
      </strong>
      {transcoder.message ? ` ${transcoder.message}` : ''}
    </p>
  );
}

/** The encryption job's progress (decision 0235): shown while files phones can get are still stored plain. */
function EncryptionProgress() {
  const backlog = encryptionBacklog(useAdminMovies().data);
  if (!backlog) return null;
  const left = backlog.files - backlog.encrypted;
  return (
    <div
      role="status"
      data-testid="encryption-progress"
      className="rounded-2xl border border-sky-300 bg-sky-50 p-4 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950/40 dark:text-sky-100"
    >
      <p>
        <strong className="font-semibold">Encrypting films for phones:</strong> {backlog.encrypted} of {backlog.files}{' '}
        files done, {left} to go. A file is offered as stored until its turn.
      </p>
      <ProgressBar
        className="mt-2 bg-sky-200! dark:bg-sky-900!"
        tone="info"
        percent={(backlog.encrypted / backlog.files) * 100}
        label="Films encrypted for phones"
        valueText={`${backlog.encrypted} of ${backlog.files} files`}
      />
    </div>
  );
}

/** Admin → Movies: upload (English / Kinayuganda), the uploads in progress, and the library to manage. */
export default function MoviesTab() {
  return (
    <>
      <TabHeading
        title="Movies"
        description="Upload movies, attach them to plans, and show, hide or delete them. Big uploads carry on after a dropped connection."
      />
      <div className="space-y-8">
        <TranscoderNotice />
        <EncryptionProgress />
        <UploadForms />
        <UploadQueue />
        <MovieList />
      </div>
    </>
  );
}
