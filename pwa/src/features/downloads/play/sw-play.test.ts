import 'fake-indexeddb/auto';
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { FILM_TAKEN_DOWN, filmCounterBlock, fromBase64url, LICENCE_ELSEWHERE, toBase64url } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { keepLicence, markRevoked, phoneKey } from '../../licences/store.ts';
import { newDownload, type LocalDownload } from '../engine/record.ts';
import { playAddress, recordKeyOfPlayPath } from './play-address.ts';
import { answerPlay, type PlayDeps } from './sw-play.ts';

/**
 * The service worker's play route end to end in Node (decision 0232): a download record, a licence wrapped for this
 * phone's key as the server wraps it (RSA-OAEP, SHA-256), the encrypted file, and what the player is answered.
 */
const plain = randomBytes(5000);
const rawKey = randomBytes(16);
const nonce = randomBytes(8);
const cipher = createCipheriv('aes-128-ctr', rawKey, filmCounterBlock(nonce, 0));
const encrypted = new Blob([Buffer.concat([cipher.update(plain), cipher.final()])]);

async function phoneWithFilm(patch: Partial<LocalDownload> = {}) {
  const ownerId = `user:${randomUUID()}`;
  const input = { ownerId, movieId: randomUUID(), title: 'Kasuku', category: 'English' as const, vj: 'VJ Emmy' };
  const record: LocalDownload = {
    ...newDownload({ ...input, thumbnailUrl: null, size: plain.length, fileName: 'Kasuku.mp4' }, 1),
    state: 'complete',
    fileNonce: toBase64url(nonce),
    ...patch,
  };
  const publicKey = await crypto.subtle.importKey(
    'spki',
    fromBase64url((await phoneKey()).spki),
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, rawKey);
  const licence = {
    id: randomUUID(),
    movieId: record.movieId,
    deviceId: 'phone',
    deviceKeyId: 'key',
    wrappedKey: toBase64url(wrapped),
    way: 'download' as const,
    issuedAt: new Date().toISOString(),
    token: 'signed',
  };
  await keepLicence(ownerId, licence);
  const deps: PlayDeps = {
    record: async (key) => (key === record.key ? record : undefined),
    file: async (key) => {
      if (key !== record.key) throw new DOMException('gone', 'NotFoundError');
      return encrypted;
    },
  };
  const play = (range?: string) =>
    answerPlay(
      new Request(`https://filamu.test${playAddress(record.key)}`, { headers: range ? { Range: range } : {} }),
      deps,
    );
  return { record, licence, deps, play };
}

describe('the play route of the service worker', () => {
  it('names a record by its key, and nothing else', () => {
    expect(recordKeyOfPlayPath(playAddress('user:a:b'))).toBe('user:a:b');
    expect(recordKeyOfPlayPath('/play/')).toBeNull();
    expect(recordKeyOfPlayPath('/play/a/b')).toBeNull();
    expect(recordKeyOfPlayPath('/play/%E0%A4%A')).toBeNull();
    expect(recordKeyOfPlayPath('/downloads/x')).toBeNull();
  });

  it('plays a range of the film decrypted with the key its licence opens on this phone', async () => {
    const { play } = await phoneWithFilm();
    const response = await play('bytes=100-2099');
    expect(response.status).toBe(206);
    expect(response.headers.get('Content-Range')).toBe(`bytes 100-2099/${plain.length}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(plain.subarray(100, 2100))).toBe(true);
    const whole = await play();
    expect(Buffer.from(await whole.arrayBuffer()).equals(plain)).toBe(true);
  });

  it('refuses, in words, a film whose licence moved, was taken down or whose account is gone', async () => {
    for (const [reason, words] of [
      ['moved', LICENCE_ELSEWHERE],
      ['taken_down', FILM_TAKEN_DOWN],
      ['deleted', 'The account this film was saved for is gone.'],
    ] as const) {
      const { record, licence, play } = await phoneWithFilm();
      await markRevoked(record.ownerId, [{ id: licence.id, reason }]);
      const response = await play('bytes=0-');
      expect(response.status, reason).toBe(403);
      expect(await response.text(), reason).toBe(words);
    }
  });

  it('refuses a film with no licence on this phone, and one that is not here or not finished', async () => {
    const { record, deps } = await phoneWithFilm();
    const noLicence = await answerPlay(new Request(`https://filamu.test${playAddress(record.key)}`), {
      ...deps,
      record: async () => ({ ...record, movieId: randomUUID() }),
    });
    expect(noLicence.status).toBe(403);
    expect(await noLicence.text()).toBe(LICENCE_ELSEWHERE);

    const unknown = await answerPlay(new Request(`https://filamu.test${playAddress('user:x:y')}`), deps);
    expect(unknown.status).toBe(404);
    const unfinished = await phoneWithFilm({ state: 'downloading' });
    expect((await unfinished.play()).status).toBe(404);
    const plainFile = await phoneWithFilm({ fileNonce: null });
    expect((await plainFile.play()).status).toBe(404);
  });
});
