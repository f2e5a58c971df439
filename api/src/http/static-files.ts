import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import { CONTENT_CODINGS, type ContentCoding } from './content-coding.ts';

/** One form of a file's bytes: as built, or one of its precompressed copies. */
interface Representation {
  bytes: Uint8Array<ArrayBuffer>;
  /** Strong, and different for each coding (RFC 9110 §8.8.3): a cache must not mix br and gzip bytes. */
  etag: string;
}

export interface StaticFile {
  contentType: string;
  /** HTTP date of the built file. */
  lastModified: string;
  identity: Representation;
  /** The precompressed copies the build wrote (`file.br`, `file.gz`; pwa/scripts/precompress.mjs). */
  codings: Partial<Record<ContentCoding, Representation>>;
}

/** Dist-relative path with forward slashes (`index.html`, `assets/index-abc.js`) → the file. */
export type StaticFiles = ReadonlyMap<string, StaticFile>;

const SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };
const ETAG_SUFFIX: Record<ContentCoding, string> = { br: '-br', gzip: '-gz' };

/**
 * Reads the whole built PWA into memory once, at start: about 2.5 MB with its compressed copies, so each request
 * is a map lookup, and a server keeps answering with the build it started with even while the folder is rebuilt
 * (its index.html and the hashed assets it names stay consistent). Big media belong in storage, not in pwa/public.
 *
 * A `.br` or `.gz` file next to its original is that file's compressed copy, never a file of its own.
 * Dot-folders (`.vite/`, the build manifest) are not served, except `.well-known/`.
 */
export function loadStaticFiles(distDir: string): StaticFiles {
  const paths = new Set(listFiles(distDir, ''));
  const files = new Map<string, StaticFile>();
  for (const path of paths) {
    const isCopy = (coding: ContentCoding) =>
      path.endsWith(SUFFIX[coding]) && paths.has(path.slice(0, -SUFFIX[coding].length));
    if (CONTENT_CODINGS.some(isCopy)) continue;
    const bytes = readBytes(distDir, path);
    const tag = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
    const codings: StaticFile['codings'] = {};
    for (const coding of CONTENT_CODINGS) {
      if (!paths.has(path + SUFFIX[coding])) continue;
      codings[coding] = { bytes: readBytes(distDir, path + SUFFIX[coding]), etag: `"${tag}${ETAG_SUFFIX[coding]}"` };
    }
    files.set(path, {
      contentType: getMimeType(path) ?? 'application/octet-stream',
      lastModified: statSync(join(distDir, path)).mtime.toUTCString(),
      identity: { bytes, etag: `"${tag}"` },
      codings,
    });
  }
  return files;
}

function readBytes(root: string, path: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(join(root, path)));
}

function listFiles(root: string, prefix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(root, path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}
