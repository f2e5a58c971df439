import type { MovieRating } from '@filamu/shared';
import type { FinishedPart, FileIdentity } from './parts.ts';
import type { UploadState } from './machine.ts';

/** What the admin filled in; kept so an upload resumed after a reload saves the same movie. */
export interface UploadForm {
  title: string;
  description: string;
  vj: string;
  category: 'English' | 'Kinayuganda';
  rating: MovieRating;
  /** Empty when the admin keeps no certificate. */
  certificateNumber: string;
  /** `YYYY-MM-DD` or empty. */
  certificateDate: string;
  planIds: string[];
}

/**
 * One upload as IndexedDB keeps it: enough to carry on after a reload from the last finished part. The movie
 * `File` itself is not stored (it would copy gigabytes into the browser profile); the thumbnail (≤ 5 MB) is.
 */
export interface StoredUpload {
  id: string;
  createdAt: number;
  form: UploadForm;
  movie: FileIdentity & { type: string };
  thumbnail: { name: string; type: string; blob: Blob } | null;
  /** Set once the thumbnail is stored. */
  thumbnailKey: string | null;
  /** The movie's key once an upload link was given. */
  movieKey: string | null;
  /** Multipart movie uploads: what is needed to resume. */
  multipart: { uploadId: string; partSize: number; partCount: number; finished: FinishedPart[] } | null;
  /** The whole movie is in storage (single PUT done or parts completed). */
  movieStored: boolean;
  state: UploadState;
}
