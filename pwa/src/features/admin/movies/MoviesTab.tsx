import { TabHeading } from '../components/TabHeading.tsx';
import { MovieList } from './MovieList.tsx';
import { useAdminSystemStatus } from './queries.ts';
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
        <UploadForms />
        <UploadQueue />
        <MovieList />
      </div>
    </>
  );
}
