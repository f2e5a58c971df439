import { TabHeading } from '../components/TabHeading.tsx';
import { MovieList } from './MovieList.tsx';
import { UploadForms } from './UploadForm.tsx';
import { UploadQueue } from './UploadQueue.tsx';

/** Admin → Movies: upload (English / Kinayuganda), the uploads in progress, and the library to manage. */
export default function MoviesTab() {
  return (
    <>
      <TabHeading
        title="Movies"
        description="Upload movies, attach them to plans, and show, hide or delete them. Big uploads carry on after a dropped connection."
      />
      <div className="space-y-8">
        <UploadForms />
        <UploadQueue />
        <MovieList />
      </div>
    </>
  );
}
