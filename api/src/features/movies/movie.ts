import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { movies } from '../../db/schema.ts';

// The movie every product feature builds on (catalog, downloads, subtitles): its row, its files and sizes
// (files.ts), its subtitles' summary and who may have it (entitlement.ts). A leaf: it imports no product feature
// (scripts/layers.mjs, decision 0217).

export type MovieRow = typeof movies.$inferSelect;

/** Movies anyone can see: active and not deleted. */
export const liveMovie = (): SQL => and(eq(movies.isActive, true), isNull(movies.deletedAt))!;
