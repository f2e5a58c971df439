import { z } from 'zod';

/** Maturity ratings the Terms promise (decision 0166), youngest audience first. */
export const MOVIE_RATINGS = ['all', 'pg', '13', '18'] as const;
export const RATING_LABELS: Record<(typeof MOVIE_RATINGS)[number], string> = {
  all: 'All',
  pg: 'PG',
  '13': '13+',
  '18': '18+',
};
export const RATING_REQUIRED = "Choose the movie's rating: All, PG, 13+ or 18+.";
export const MovieRating = z.enum(MOVIE_RATINGS, { message: RATING_REQUIRED });
export type MovieRating = z.infer<typeof MovieRating>;

export const CERTIFICATE_DATE_INVALID = 'Enter the certificate date as a real day (YYYY-MM-DD), not in the future.';
/** A calendar day (`YYYY-MM-DD`) that exists, from 1960 to 2100 (the server also refuses days after today). */
export const CertificateDate = z
  .string({ message: CERTIFICATE_DATE_INVALID })
  .trim()
  .max(10, CERTIFICATE_DATE_INVALID)
  .regex(/^\d{4}-\d{2}-\d{2}$/, CERTIFICATE_DATE_INVALID)
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    const year = Number(value.slice(0, 4));
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value && year >= 1960 && year <= 2100;
  }, CERTIFICATE_DATE_INVALID);
export const CERTIFICATE_NUMBER_MAX = 60;
