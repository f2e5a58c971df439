import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, NETWORK_MESSAGE, runUpload, type UploadDeps } from './engine.ts';
import { initialUploadState } from './machine.ts';
import type { StoredUpload } from './record.ts';
import { memoryRecords } from './store.ts';
import type { PutResult } from './transport.ts';

/** The engine against a fake storage and API: parts retried alone, links re-minted, resumed from finished parts. */

const PART = 10;

function movieFile(size = 35): File {
  const bytes = new Uint8Array(size).map((_, i) => (i * 7) % 251);
  return new File([bytes], 'kampala.mp4', { type: 'video/mp4', lastModified: 1_700_000_000_000 });
}

function newRecord(file: File, thumbnail: Blob | null = null): StoredUpload {
  return {
    id: 'u1',
    createdAt: 1,
    form: {
      title: 'Kampala',
      description: 'Lake',
      vj: 'VJ Emmy',
      category: 'English',
      rating: 'pg',
      certificateNumber: '',
      certificateDate: '',
      planIds: ['p1', 'p2'],
    },
    movie: { name: file.name, size: file.size, lastModified: file.lastModified, type: file.type },
    thumbnail: thumbnail ? { name: 't.png', type: 'image/png', blob: thumbnail } : null,
    thumbnailKey: null,
    movieKey: null,
    multipart: null,
    movieStored: false,
    state: initialUploadState,
  };
}

/** Storage and API in memory; `script(url, attempt)` may answer a PUT instead of the storage. */
function fakeWorld(options: { multipart: boolean; script?: (url: string, attempt: number) => PutResult | null }) {
  const parts = new Map<number, { bytes: Uint8Array; etag: string }>();
  const objects = new Map<string, Uint8Array>();
  const puts: string[] = [];
  const attempts = new Map<string, number>();
  let generation = 0;
  const saved: unknown[] = [];
  const records = memoryRecords();
  const changes: StoredUpload[] = [];
  let completeCalls = 0;
  const link = (n: number) => `part:${n}:${generation}`;

  const deps: UploadDeps = {
    records,
    now: () => 0,
    sleep: async () => {},
    onChange: (record) => changes.push(record),
    api: {
      async uploadUrl({ folder, fileSize, fileType }) {
        const key = `${folder}/k.${fileType.split('/')[1]}`;
        if (options.multipart && folder === 'movies') {
          const partCount = Math.ceil(fileSize / PART);
          return {
            s3Key: key,
            expiresAt: new Date().toISOString(),
            presignedUrl: null,
            method: 'PUT',
            headers: {},
            multipart: {
              uploadId: 'up1',
              partSize: PART,
              partCount,
              parts: Array.from({ length: partCount }, (_, i) => ({ partNumber: i + 1, url: link(i + 1) })),
            },
          };
        }
        return {
          s3Key: key,
          expiresAt: '',
          presignedUrl: `single:${key}`,
          method: 'PUT',
          headers: {},
          multipart: null,
        };
      },
      async partUrls({ partNumbers }) {
        generation++;
        return { parts: partNumbers.map((n) => ({ partNumber: n, url: link(n) })) };
      },
      async complete({ s3Key, parts: list }) {
        completeCalls++;
        const sorted = [...list].sort((a, b) => a.partNumber - b.partNumber);
        for (const part of sorted) if (parts.get(part.partNumber)?.etag !== part.etag) throw new Error('bad etag');
        const total = sorted.reduce((sum, part) => sum + parts.get(part.partNumber)!.bytes.length, 0);
        const out = new Uint8Array(total);
        let offset = 0;
        for (const part of sorted) {
          out.set(parts.get(part.partNumber)!.bytes, offset);
          offset += parts.get(part.partNumber)!.bytes.length;
        }
        objects.set(s3Key, out);
      },
      async abort() {},
      async saveMovie(body) {
        saved.push(body);
        return { id: 'm1' };
      },
    },
    async put({ url, body, onProgress }) {
      puts.push(url);
      const attempt = (attempts.get(url.split(':').slice(0, 2).join(':')) ?? 0) + 1;
      attempts.set(url.split(':').slice(0, 2).join(':'), attempt);
      const scripted = options.script?.(url, attempt);
      if (scripted) return scripted;
      const bytes = new Uint8Array(await body.arrayBuffer());
      onProgress(bytes.length);
      if (url.startsWith('part:')) {
        const n = Number(url.split(':')[1]);
        const etag = `"${n}-${attempt}"`;
        parts.set(n, { bytes, etag });
        return { status: 200, etag, message: null };
      }
      objects.set(url.slice('single:'.length), bytes);
      return { status: 200, etag: '"x"', message: null };
    },
  };
  return { deps, objects, puts, saved, records, changes, completes: () => completeCalls };
}

const bytesOf = async (file: Blob) => new Uint8Array(await file.arrayBuffer());

describe('upload engine', () => {
  it('uploads the thumbnail and a small movie in one PUT each, then saves with the plans', async () => {
    const file = movieFile();
    const thumb = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    const world = fakeWorld({ multipart: false });
    const done = await runUpload(
      world.deps,
      newRecord(file, thumb),
      { movie: file, thumbnail: thumb },
      new AbortController().signal,
    );
    expect(done.state.status).toBe('completed');
    expect(world.objects.get('movies/k.mp4')).toEqual(await bytesOf(file));
    expect(world.objects.get('thumbnails/k.png')).toEqual(new Uint8Array([1, 2, 3]));
    expect(world.saved).toEqual([
      expect.objectContaining({
        title: 'Kampala',
        rating: 'pg',
        certificateNumber: null,
        movieS3Key: 'movies/k.mp4',
        thumbnailS3Key: 'thumbnails/k.png',
        size: 35,
        planIds: ['p1', 'p2'],
      }),
    ]);
    const phases = world.changes.map((c) => `${c.state.status}/${c.state.phase}`);
    expect(phases).toContain('uploading/thumbnail');
    expect(phases).toContain('uploading/movie');
    expect(phases).toContain('processing/null');
  });

  it('retries only the part that dropped, re-mints an expired link, and assembles the exact bytes', async () => {
    const file = movieFile(35);
    const world = fakeWorld({
      multipart: true,
      script: (url, attempt) => {
        if (url.startsWith('part:2:') && attempt === 1) return { status: 0, etag: null, message: null };
        if (url.startsWith('part:3:') && attempt === 1) return { status: 503, etag: null, message: null };
        if (url === 'part:4:0') return { status: 403, etag: null, message: 'This link is invalid or has expired.' };
        return null;
      },
    });
    const done = await runUpload(
      world.deps,
      newRecord(file),
      { movie: file, thumbnail: null },
      new AbortController().signal,
    );
    expect(done.state.status).toBe('completed');
    expect(world.objects.get('movies/k.mp4')).toEqual(await bytesOf(file));
    expect(world.puts.filter((u) => u.startsWith('part:1:'))).toHaveLength(1);
    expect(world.puts.filter((u) => u.startsWith('part:2:'))).toHaveLength(2);
    expect(world.puts.filter((u) => u.startsWith('part:4:'))).toEqual(['part:4:0', 'part:4:1']);
    // Saved records carried each finished part, so a reload would have resumed from them.
    expect(Math.max(...world.changes.map((c) => c.multipart?.finished.length ?? 0))).toBe(4);
  });

  it('fails after the network stays down, keeping finished parts; the next run sends only the rest', async () => {
    const file = movieFile(35);
    let down = true;
    const world = fakeWorld({
      multipart: true,
      script: (url) => (down && url.startsWith('part:3:') ? { status: 0, etag: null, message: null } : null),
    });
    const failed = await runUpload(
      world.deps,
      newRecord(file),
      { movie: file, thumbnail: null },
      new AbortController().signal,
    );
    expect(failed.state).toMatchObject({ status: 'failed', errorMessage: NETWORK_MESSAGE });
    expect(world.puts.filter((u) => u.startsWith('part:3:'))).toHaveLength(MAX_ATTEMPTS);
    const stored = (await world.records.list())[0]!;
    expect(stored.multipart!.finished.map((p) => p.partNumber).sort()).toEqual([1, 2, 4]);

    down = false;
    world.puts.length = 0;
    const retried = { ...stored, state: { ...stored.state, status: 'queued' as const, errorMessage: null } };
    const done = await runUpload(world.deps, retried, { movie: file, thumbnail: null }, new AbortController().signal);
    expect(done.state.status).toBe('completed');
    expect(world.puts.map((u) => u.split(':')[1])).toEqual(['3']);
    expect(world.objects.get('movies/k.mp4')).toEqual(await bytesOf(file));
  });

  it('asks for the file again when a resumed upload has none, and saves straight away when the movie is stored', async () => {
    const file = movieFile();
    const world = fakeWorld({ multipart: true });
    const waiting = await runUpload(
      world.deps,
      newRecord(file),
      { movie: null, thumbnail: null },
      new AbortController().signal,
    );
    expect(waiting.state.status).toBe('needs-file');
    expect(world.puts).toEqual([]);

    const stored = { ...newRecord(file), movieKey: 'movies/k.mp4', movieStored: true };
    const done = await runUpload(world.deps, stored, { movie: null, thumbnail: null }, new AbortController().signal);
    expect(done.state.status).toBe('completed');
    expect(world.saved).toHaveLength(1);
  });

  it('stops at once on Cancel (the run rejects; nothing is saved)', async () => {
    const file = movieFile();
    const controller = new AbortController();
    const world = fakeWorld({
      multipart: true,
      script: () => {
        controller.abort(new Error('cancelled'));
        return { status: 0, etag: null, message: null };
      },
    });
    await expect(
      runUpload(world.deps, newRecord(file), { movie: file, thumbnail: null }, controller.signal),
    ).rejects.toThrow('cancelled');
    expect(world.saved).toEqual([]);
    expect(world.completes()).toBe(0);
  });
});
