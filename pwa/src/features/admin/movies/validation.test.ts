import { describe, expect, it } from 'vitest';
import { MOVIE_NOT_VIDEO, THUMBNAIL_NOT_IMAGE, uploadProblems, type UploadDraft } from './validation.ts';

const ok: UploadDraft = {
  category: 'English',
  title: 'Kampala',
  vj: 'VJ Emmy',
  rating: '13',
  movie: { type: 'video/mp4' },
  thumbnail: null,
  planIds: ['p1'],
};

describe('upload form rules (product §5)', () => {
  it('accepts a complete form', () => {
    expect(uploadProblems(ok)).toEqual([]);
  });

  it('names each missing piece with the product texts', () => {
    expect(uploadProblems({ ...ok, title: ' ' })).toEqual([
      'Validation Error: Please fill out the movie title and select a movie file.',
    ]);
    expect(uploadProblems({ ...ok, movie: null })).toHaveLength(1);
    expect(uploadProblems({ ...ok, vj: '' })).toEqual(['Please fill out the VJ/Uploader field.']);
    expect(uploadProblems({ ...ok, rating: '' })).toEqual(["Choose the movie's rating: All, PG, 13+ or 18+."]);
    expect(uploadProblems({ ...ok, planIds: [] })).toEqual([
      'Please select at least one subscription plan for this movie.',
    ]);
  });

  it('needs no VJ for Kinayuganda, a video for the movie and an image for the thumbnail', () => {
    expect(uploadProblems({ ...ok, category: 'Kinayuganda', vj: '' })).toEqual([]);
    expect(uploadProblems({ ...ok, movie: { type: 'image/png' } })).toEqual([MOVIE_NOT_VIDEO]);
    expect(uploadProblems({ ...ok, thumbnail: { type: 'video/mp4' } })).toEqual([THUMBNAIL_NOT_IMAGE]);
  });
});
