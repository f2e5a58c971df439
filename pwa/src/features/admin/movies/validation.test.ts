import { describe, expect, it } from 'vitest';
import {
  attachedToPlans,
  MOVIE_NOT_VIDEO,
  plansWithWholeCategory,
  THUMBNAIL_NOT_IMAGE,
  uploadProblems,
  type UploadDraft,
} from './validation.ts';

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

  it('calls nothing a validation error before the admin has typed or picked anything', () => {
    const blank: UploadDraft = { ...ok, title: '', vj: '', rating: '', movie: null, planIds: [] };
    const before = uploadProblems(blank, { started: false });
    expect(before[0]).toBe('Please fill out the movie title and select a movie file.');
    expect(before.join(' ')).not.toContain('Validation Error');
    expect(uploadProblems(blank, { started: true })[0]).toMatch(/^Validation Error: /);
  });

  it('counts plans in words', () => {
    expect(attachedToPlans(1)).toBe('attached to 1 plan');
    expect(attachedToPlans(3)).toBe('attached to 3 plans');
  });
});

describe('plansWithWholeCategory', () => {
  const library = [
    { category: 'Kinayuganda', plan_ids: ['all', 'some'] },
    { category: 'Kinayuganda', plan_ids: ['all'] },
    { category: 'English', plan_ids: ['some'] },
  ];

  it('names the plans holding every movie of the category, so the next upload joins them', () => {
    expect(plansWithWholeCategory(library, ['all', 'some', 'none'], 'Kinayuganda')).toEqual(['all']);
    expect(plansWithWholeCategory(library, ['all', 'some', 'none'], 'English')).toEqual(['some']);
  });

  it('names none while the category has no movie yet', () => {
    expect(plansWithWholeCategory([], ['all'], 'English')).toEqual([]);
  });
});
