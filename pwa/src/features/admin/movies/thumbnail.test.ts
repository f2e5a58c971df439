import { describe, expect, it } from 'vitest';
import { thumbnailSource, uploadDate } from './thumbnail.ts';

describe('movie list thumbnails and dates (product §2)', () => {
  it('uses a full URL as is, puts /thumbnails/ paths on the CDN, and otherwise has no image', () => {
    expect(thumbnailSource('https://cdn.filamu.ug/thumbnails/a.jpg', null)).toBe(
      'https://cdn.filamu.ug/thumbnails/a.jpg',
    );
    expect(thumbnailSource('http://127.0.0.1:3000/files/thumbnails/a.png', 'https://cdn.x')).toBe(
      'http://127.0.0.1:3000/files/thumbnails/a.png',
    );
    expect(thumbnailSource('/thumbnails/a.jpg', 'https://cdn.filamu.ug/')).toBe(
      'https://cdn.filamu.ug/thumbnails/a.jpg',
    );
    expect(thumbnailSource('/thumbnails/a.jpg', null)).toBeNull();
    expect(thumbnailSource('a.jpg', 'https://cdn.filamu.ug')).toBeNull();
    expect(thumbnailSource(null, 'https://cdn.filamu.ug')).toBeNull();
  });

  it("shows 'N/A Date' for a missing or invalid date", () => {
    expect(uploadDate('not a date')).toBe('N/A Date');
    expect(uploadDate(null)).toBe('N/A Date');
    expect(uploadDate('2026-11-23T10:00:00.000Z')).toBe('23 Nov 2026');
  });
});
