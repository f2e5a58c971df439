import { defineContract } from '../contract.ts';
import {
  CompleteDownloadRequest,
  DownloadHistory,
  DownloadIdParams,
  DownloadProgressRequest,
  DownloadRecord,
  DownloadStats,
  DownloadUrlRequest,
  DownloadUrlResponse,
  FailDownloadRequest,
  HasDownloadedResponse,
  KinayugandaStatusResponse,
  MovieIdParams,
  RedownloadAllowance,
  StartDownloadRequest,
  StartDownloadResponse,
} from '../schemas/downloads.ts';

const tag = 'Downloads';

export const downloadUrl = defineContract({
  method: 'post',
  path: '/users/movies/generate-download-url',
  summary: 'Grant (or resume) the download of a movie and return a signed, resumable link to its file',
  tag,
  access: 'account',
  body: DownloadUrlRequest,
  response: DownloadUrlResponse,
});

export const startDownload = defineContract({
  method: 'post',
  path: '/users/downloads/start',
  summary: 'Grant (or resume) the download of a movie; the same rules as generate-download-url',
  tag,
  access: 'account',
  body: StartDownloadRequest,
  response: StartDownloadResponse,
});

export const reportProgress = defineContract({
  method: 'put',
  path: '/users/downloads/:id/progress',
  summary: 'Bytes received so far (only ever grows, never past the size); status paused when the person pauses',
  tag,
  access: 'account',
  params: DownloadIdParams,
  body: DownloadProgressRequest,
  response: DownloadRecord,
});

export const completeDownload = defineContract({
  method: 'put',
  path: '/users/downloads/:id/complete',
  summary: 'Mark a download complete; accepted only when every byte of the file was received',
  tag,
  access: 'account',
  params: DownloadIdParams,
  body: CompleteDownloadRequest,
  response: DownloadRecord,
});

export const failDownload = defineContract({
  method: 'put',
  path: '/users/downloads/:id/fail',
  summary: 'Record a failed download; it stays resumable',
  tag,
  access: 'account',
  params: DownloadIdParams,
  body: FailDownloadRequest,
  response: DownloadRecord,
});

export const downloadRecord = defineContract({
  method: 'get',
  path: '/users/downloads/:movieId/status',
  summary: "The caller's download of a movie; 404 when there is none (not_started)",
  tag,
  access: 'account',
  params: MovieIdParams,
  response: DownloadRecord,
});

export const hasDownloaded = defineContract({
  method: 'get',
  path: '/users/me/download-status/:movieId',
  summary: 'Whether the caller has completed the download of a movie',
  tag,
  access: 'account',
  params: MovieIdParams,
  response: HasDownloadedResponse,
});

export const kinayugandaStatus = defineContract({
  method: 'get',
  path: '/users/me/kinayuganda-download-status',
  summary: 'Whether every entitled active Kinayuganda movie is downloaded (English unlocks then)',
  tag,
  access: 'account',
  response: KinayugandaStatusResponse,
});

export const downloadStats = defineContract({
  method: 'get',
  path: '/users/me/download-stats',
  summary: "The caller's completed downloads: count, bytes, last date and the list",
  tag,
  access: 'account',
  response: DownloadStats,
});

export const downloadHistory = defineContract({
  method: 'get',
  path: '/users/me/downloads',
  summary: "The caller's downloads, finished or not, most recent first",
  tag,
  access: 'account',
  response: DownloadHistory,
});

export const redownloadAllowance = defineContract({
  method: 'get',
  path: '/users/me/redownloads',
  summary: "The caller's re-downloads of movies completed before: this month's allowance, extra ones, what is left",
  tag,
  access: 'user',
  response: RedownloadAllowance,
});
