import { FILM_TAKEN_DOWN, LICENCE_ELSEWHERE } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { CANNOT_PLAY_WORDS, cannotPlayOf, cannotPlayOfLicenceError } from './play-words.ts';

/** What the Play screen says when an encrypted film cannot play (decision 0232): a reason and a way on, in words. */
describe('why an encrypted film cannot play', () => {
  it('says a film with no licence here, or one that moved, was saved on another phone', () => {
    expect(cannotPlayOf('none')).toBe('elsewhere');
    expect(cannotPlayOf('moved')).toBe('elsewhere');
    expect(CANNOT_PLAY_WORDS.elsewhere.title).toBe(LICENCE_ELSEWHERE);
  });

  it('says a taken-down film is taken down, and an account that is gone is gone', () => {
    expect(cannotPlayOf('taken_down')).toBe('taken_down');
    expect(CANNOT_PLAY_WORDS.taken_down.text).toContain(FILM_TAKEN_DOWN);
    expect(cannotPlayOf('deleted')).toBe('deleted');
    expect(CANNOT_PLAY_WORDS.deleted.text).toMatch(/account .* was deleted/);
  });

  it('reads a refused licence request as the server meant it, and anything else as "connect, then try again"', () => {
    const refused = (status: number, code: string) => new ApiError({ status, code, message: 'x' });
    expect(cannotPlayOfLicenceError(refused(409, 'licence_elsewhere'))).toBe('elsewhere');
    expect(cannotPlayOfLicenceError(refused(403, 'forbidden'))).toBe('taken_down');
    expect(cannotPlayOfLicenceError(refused(0, 'network_error'))).toBe('needs-licence');
    expect(cannotPlayOfLicenceError(new TypeError('Failed to fetch'))).toBe('needs-licence');
  });

  it('never speaks of codecs or formats: every reason is a short sentence a person can act on', () => {
    for (const [why, words] of Object.entries(CANNOT_PLAY_WORDS)) {
      expect(`${words.title} ${words.text}`, why).not.toMatch(/codec|format|MEDIA_ERR|decode|DOMException/i);
      expect(words.title.length, why).toBeLessThan(60);
      expect(words.text.length, why).toBeLessThan(160);
    }
  });
});
