import {
  contracts,
  subtitleLabelOf,
  type AdminMovie,
  type RenditionKind,
  type SubtitleSummary,
  type UpdateMovieRequest,
} from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { anyEncoding } from './renditions.ts';
import type { SubtitleChanges } from './subtitle-changes.ts';

/** The Movies tab's server data; after every change both the admin list and the library refresh (product §7). */

/** Every ~3 s while a rendition is queued or encoding, so the console shows the encode's progress. */
const ENCODING_POLL_MS = 3_000;

export function useAdminMovies() {
  return useQuery({
    queryKey: queryKeys.adminMovies,
    queryFn: async () => (await api(contracts.movies.adminListMovies)).movies,
    refetchInterval: (query) => (anyEncoding(query.state.data) ? ENCODING_POLL_MS : false),
  });
}

/** The server's word on ffmpeg (and the sandbox); it changes only with a restart. */
export function useAdminSystemStatus() {
  return useQuery({
    queryKey: queryKeys.adminSystemStatus,
    queryFn: () => api(contracts.system.adminStatus),
    staleTime: Infinity,
  });
}

/** Only active plans are offered on the upload form (product §5). */
export function useActivePlans() {
  return useQuery({
    queryKey: queryKeys.adminSubscriptionPlans,
    queryFn: async () => (await api(contracts.plans.adminListPlans)).plans,
    select: (plans) => plans.filter((plan) => plan.is_active),
  });
}

const refresh = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.adminMovies }),
    queryClient.invalidateQueries({ queryKey: queryKeys.movies }),
  ]);

export function useToggleMovie() {
  return useMutation({
    mutationFn: (movie: AdminMovie) =>
      api(contracts.movies.adminToggleMovie, { params: { id: movie.id }, body: { is_active: !movie.is_active } }),
    onSuccess: refresh,
  });
}

export function useDeleteMovie() {
  return useMutation({
    mutationFn: (movie: AdminMovie) => api(contracts.movies.adminDeleteMovie, { params: { id: movie.id } }),
    onSuccess: refresh,
  });
}

/** Takes a film down for rights (decision 0231): hidden, and every phone's licence of it revoked. */
export function useTakeDownMovie() {
  return useMutation({
    mutationFn: ({ movie, reason }: { movie: AdminMovie; reason: string }) =>
      api(contracts.licences.takeDownMovie, { params: { id: movie.id }, body: { reason } }),
    onSuccess: refresh,
  });
}

export function useRetryRendition() {
  return useMutation({
    mutationFn: ({ movie, kind }: { movie: AdminMovie; kind: RenditionKind }) =>
      api(contracts.movies.adminRetryRendition, { params: { id: movie.id, kind } }),
    onSuccess: refresh,
  });
}

export function useUpdateMovie() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateMovieRequest }) =>
      api(contracts.movies.adminUpdateMovie, { params: { id }, body }),
    onSuccess: refresh,
  });
}

/** A new poster for an edit: stored under a key the server chooses, then named in the edit (checked there). */
export async function uploadPoster(file: File): Promise<string> {
  const link = await api(contracts.movies.adminUploadUrl, {
    body: {
      fileName: file.name.slice(-200) || 'poster',
      fileType: file.type,
      fileSize: file.size,
      folder: 'thumbnails',
    },
  });
  if (!link.presignedUrl) throw new Error('The poster could not be uploaded. Please try again.');
  const res = await fetch(link.presignedUrl, { method: 'PUT', headers: link.headers, body: file });
  if (!res.ok) throw new Error('The poster could not be uploaded. Please try again.');
  return link.s3Key;
}

/** A staged subtitle change the server refused: the message names the language and the file. */
export class SubtitleSaveError extends Error {}

/**
 * Applies the edit dialog's staged subtitle changes, one at a time: the server converts and checks each file
 * (decision 0172). `onSaved` hears each one that went through, with what is still to do and the movie's subtitles
 * now, so a refused file leaves the rest staged and the list true.
 */
export async function saveSubtitleChanges(
  movieId: string,
  changes: SubtitleChanges,
  onSaved: (remaining: SubtitleChanges, subtitles: SubtitleSummary[]) => void,
): Promise<void> {
  let remaining = changes;
  try {
    for (const add of changes.adds) {
      const saved = await api(contracts.subtitles.adminPutSubtitles, {
        params: { id: movieId, language: add.language },
        body: { text: add.text },
      }).catch((error: unknown) => {
        const why = errorMessage(error, 'It could not be saved. Please try again.');
        throw new SubtitleSaveError(
          `${subtitleLabelOf(add.language)} subtitles (${add.fileName}) were not saved: ${why}`,
        );
      });
      remaining = { ...remaining, adds: remaining.adds.filter((a) => a !== add) };
      onSaved(remaining, saved.movie.subtitles);
    }
    for (const language of changes.removals) {
      const saved = await api(contracts.subtitles.adminDeleteSubtitles, { params: { id: movieId, language } }).catch(
        (error: unknown) => {
          const why = errorMessage(error, 'Please try again.');
          throw new SubtitleSaveError(`${subtitleLabelOf(language)} subtitles were not removed: ${why}`);
        },
      );
      remaining = { ...remaining, removals: remaining.removals.filter((l) => l !== language) };
      onSaved(remaining, saved.movie.subtitles);
    }
  } finally {
    if (remaining !== changes) await refresh();
  }
}
