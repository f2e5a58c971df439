import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import {
  type CustomerPlan,
  formatDateTime,
  formatRunningTime,
  formatTimeLeft,
  formatUgx,
  MOVIE_CATEGORY_NAMES,
  type MovieCategoryName,
  RATING_LABELS,
} from '@filamu/shared';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CachedMovie, Catalogue } from '../catalog/catalogue.ts';
import { listCustomerPlans } from '../plans/plans.ts';
import { narrowestPosterKey } from '../posters/srcset.ts';
import { type PreviewContent, type PreviewMovie, type PreviewPlan, renderPreviewPage } from './page.ts';

/**
 * How long a rendered page is answered as it is (docs/decisions/0215): a change to the library or the plans shows
 * within this, and in between a request costs no database round trip, however many come.
 */
export const PREVIEW_TTL_MS = 60_000;
/** The newest movies shown per category: the page stays a few tens of KB whatever the library holds. */
export const PREVIEW_MOVIES_PER_CATEGORY = 60;
/** Descriptions are cut to about this many characters (two lines on a phone). */
const DESCRIPTION_CHARS = 140;

interface PreviewDeps {
  database: Database;
  clock: Clock;
  catalogue: Catalogue;
  logger: Logger;
}

/** One rendering, in every coding a browser may ask for. */
export interface RenderedPreview {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** A hash of the HTML; each coding's ETag adds its own suffix. */
  tag: string;
  /** When the HTML last changed (an HTTP date). */
  lastModified: string;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** `It was the best of times, it was…`: whole words, about `max` characters, spaces collapsed. */
function shortened(text: string | null, max: number): string | null {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  let end = lastSpace > max / 2 ? lastSpace : max;
  while (end > 0 && ' .,;:!?-'.includes(cut[end - 1]!)) end -= 1;
  return `${cut.slice(0, end)}…`;
}

function previewPlan(plan: CustomerPlan, now: Date): PreviewPlan {
  const end = new Date(plan.expires_at);
  return {
    name: plan.plan_name,
    price: formatUgx(plan.price_ugx),
    access: `Access until ${formatDateTime(end)} (Kampala) · ${formatTimeLeft(end, now)}`,
    description: plan.description,
    features: plan.features,
    includesEnglish: plan.includes_english,
  };
}

/**
 * Who the movie is by, as the app's detail screen says it: a Kinayuganda film's VJ ("VJ Emmy"; a bare "Junior"
 * becomes "VJ Junior"), an English film's releaser ("From Filamu Originals"); nothing for the stored "N/A".
 */
function creditOf(category: MovieCategoryName, vj: string): string | null {
  const name = vj.trim();
  if (name === '' || name.toUpperCase() === 'N/A') return null;
  if (category === 'English') return `From ${name}`;
  return /^vj\b/i.test(name) ? name : `VJ ${name}`;
}

async function previewMovie(
  catalogue: Catalogue,
  { row, planIds }: CachedMovie,
  plans: CustomerPlan[],
): Promise<PreviewMovie> {
  // Without posters made yet (or a server without ffmpeg), the admin's thumbnail, as the library shows it.
  const poster = await catalogue.thumbnailLink(narrowestPosterKey(row.posterVariants) ?? row.thumbnailKey);
  return {
    title: row.title,
    credit: creditOf(row.category, row.vj),
    rating: RATING_LABELS[row.rating],
    runningTime: row.durationSeconds === null ? null : formatRunningTime(row.durationSeconds),
    description: shortened(row.description, DESCRIPTION_CHARS),
    poster,
    planNames: plans.filter((plan) => planIds.has(plan.id)).map((plan) => plan.plan_name),
  };
}

/**
 * What the page shows, read now: the live movies (newest first, 18+ left out, decision 0215) from the cached
 * catalogue, and the plans on sale exactly as a customer's plan list has them.
 */
export async function previewContent(deps: PreviewDeps): Promise<PreviewContent> {
  const snapshot = await deps.catalogue.current();
  const { plans } = await listCustomerPlans(deps);
  const now = deps.clock.now();
  const sections = await Promise.all(
    MOVIE_CATEGORY_NAMES.map(async (category) => {
      const all = snapshot.byCategory[category];
      const shown = all.filter((movie) => movie.row.rating !== '18');
      return {
        category,
        movies: await Promise.all(
          shown.slice(0, PREVIEW_MOVIES_PER_CATEGORY).map((movie) => previewMovie(deps.catalogue, movie, plans)),
        ),
        total: shown.length,
        adultTitles: all.length - shown.length,
      };
    }),
  );
  return { plans: plans.map((plan) => previewPlan(plan, now)), sections };
}

/**
 * The preview page of this process: rendered and compressed at most once per PREVIEW_TTL_MS (one rendering at a
 * time, shared by the requests that wait for it). If a new rendering fails, the last one is answered meanwhile.
 */
export function createPreview(deps: PreviewDeps, ttlMs = PREVIEW_TTL_MS) {
  let held: { page: RenderedPreview; renderedAt: number } | null = null;
  let rendering: Promise<RenderedPreview> | null = null;

  async function render(): Promise<RenderedPreview> {
    const html = Buffer.from(renderPreviewPage(await previewContent(deps)));
    const tag = createHash('sha256').update(html).digest('base64url').slice(0, 22);
    const unchanged = held?.page.tag === tag ? held.page : null;
    const page = unchanged ?? {
      identity: html,
      // Once a minute at most, so the smallest brotli is affordable.
      br: await brotli(html, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
      gzip: await gzipAsync(html, { level: 9 }),
      tag,
      lastModified: deps.clock.now().toUTCString(),
    };
    held = { page, renderedAt: deps.clock.now().getTime() };
    return page;
  }

  return {
    async page(): Promise<RenderedPreview> {
      if (held && deps.clock.now().getTime() - held.renderedAt < ttlMs) return held.page;
      rendering ??= render().finally(() => {
        rendering = null;
      });
      try {
        return await rendering;
      } catch (error) {
        if (!held) throw error;
        deps.logger.warn({ err: error }, 'preview: rendering failed; answering the last page');
        return held.page;
      }
    },
  };
}
