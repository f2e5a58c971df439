import { keyDigitsOf, SEALED_KEYS_PAGE, type SealedKeysRequest, type SealedKeysResponse } from '@filamu/shared';
import { and, asc, gt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { movies } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ContentKeys } from '../content-keys/content-keys.ts';
import { readDeviceKey, wrapForDevice } from '../licences/device-key.ts';
import { liveMovie } from '../movies/movie.ts';
import { deviceSecretOf, sealFilmKey, type SealedKeyRoots, unlockCodeOf } from './crypto.ts';
import { recordSealedKeyPhone, type SealedKeyOwner } from './phones.ts';

export interface SealedKeysDeps {
  database: Database;
  clock: Clock;
  contentKeys: ContentKeys;
  sealedKeyRoots: SealedKeyRoots;
}

/** Title keys read at once: each is one small read the first time, and kept in the process after. */
const KEYS_AT_ONCE = 16;

/**
 * The phone's device secret, wrapped for its licence key, and a sealed key for each live film numbered after `after`
 * (decision 0249): the whole live catalogue, since a film can come to any phone and a plan can follow it (0248); a
 * page at a time. The phone key is recorded for its account, so the USSD service can find it from a request code.
 */
export async function sealedKeysFor(
  deps: SealedKeysDeps,
  owner: SealedKeyOwner,
  deviceId: string,
  request: { devicePublicKey: string; after: NonNullable<SealedKeysRequest['after']> },
): Promise<SealedKeysResponse> {
  const device = readDeviceKey(request.devicePublicKey);
  const keyDigits = keyDigitsOf(device.id);
  await recordSealedKeyPhone(
    deps.database.db,
    owner,
    { keyId: device.id, keyDigits, publicKey: request.devicePublicKey, deviceId },
    deps.clock.now(),
  );
  const deviceSecret = deviceSecretOf(deps.sealedKeyRoots, device.id);
  const rows = await deps.database.db
    .select({ id: movies.id, shortNumber: movies.shortNumber })
    .from(movies)
    .where(and(liveMovie(), gt(movies.shortNumber, request.after)))
    .orderBy(asc(movies.shortNumber))
    .limit(SEALED_KEYS_PAGE + 1);
  const page = rows.slice(0, SEALED_KEYS_PAGE);
  const films: SealedKeysResponse['films'] = [];
  for (let i = 0; i < page.length; i += KEYS_AT_ONCE) {
    const batch = page.slice(i, i + KEYS_AT_ONCE);
    const keys = await Promise.all(batch.map((film) => deps.contentKeys.keyOf(film.id)));
    batch.forEach((film, j) => {
      const unlockCode = unlockCodeOf(deps.sealedKeyRoots, device.id, film.id);
      films.push({
        movieId: film.id,
        shortNumber: film.shortNumber,
        sealedKey: sealFilmKey(deviceSecret, unlockCode, film.id, keys[j]!).toString('base64url'),
      });
    });
  }
  return {
    deviceKeyId: device.id,
    keyDigits,
    wrappedDeviceSecret: wrapForDevice(device, deviceSecret).toString('base64url'),
    films,
    next: rows.length > SEALED_KEYS_PAGE ? page.at(-1)!.shortNumber : null,
  };
}
