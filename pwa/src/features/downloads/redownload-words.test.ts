import { describe, expect, it } from 'vitest';
import { noRedownloadsLeft, redownloadCost } from './redownload-words.ts';

const renewsAt = '2026-11-30T21:00:00.000Z';

describe('re-download words', () => {
  it('says which allowance a re-download uses and what is left after it', () => {
    expect(redownloadCost({ perMonth: 3, usedThisMonth: 0, extra: 0, remaining: 3, renewsAt })).toBe(
      'Uses 1 of your 3 re-downloads this month (2 left).',
    );
    expect(redownloadCost({ perMonth: 3, usedThisMonth: 3, extra: 2, remaining: 2, renewsAt })).toBe(
      'Uses 1 of the extra re-downloads support gave you (1 left).',
    );
    expect(redownloadCost({ perMonth: 3, usedThisMonth: 3, extra: 0, remaining: 0, renewsAt })).toBeNull();
  });

  it('says when the allowance renews (Kampala date) and that support can help', () => {
    expect(noRedownloadsLeft({ perMonth: 3, usedThisMonth: 3, extra: 0, remaining: 0, renewsAt })).toBe(
      'You have used all 3 re-downloads for this month. They renew on 1 December. If you need this movie sooner, contact support: they can grant one.',
    );
  });
});
