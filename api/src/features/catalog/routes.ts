import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { absoluteUrl, publicOrigin } from '../../http/origin.ts';
import { revalidatedJson } from '../../http/revalidate.ts';
import { downloaderOf } from '../movies/entitlement.ts';
import {
  adminMovieById,
  attachPlans,
  createMovie,
  deleteMovie,
  listAdminMovies,
  setMovieActive,
} from './admin-movies.ts';
import { updateMovie } from './edit-movie.ts';
import { hiddenForSession } from '../auth/parental-status.ts';
import { retryRendition } from '../transcode/retry.ts';
import { getUserMovie, listPublicMovies, listUserMovies } from './library.ts';
import { abortMultipart, completeMultipart, createUploadUrl, refreshPartUrls } from './uploads.ts';

const { movies } = contracts;

export function catalogRoutes(router: ContractRouter, deps: Deps): void {
  const origin = (c: Context<AppEnv>) => publicOrigin(c, deps.config);
  const caller = (c: Context<AppEnv>) => downloaderOf(c.get('principal'), deps.clock.now());
  const hidden = (c: Context<AppEnv>) => hiddenForSession(c.get('principal'), deps.clock.now());
  router
    .on(movies.adminListMovies, (_input, c) => listAdminMovies(deps, origin(c)))
    .on(movies.adminUploadUrl, async ({ body }, c) => {
      const upload = await createUploadUrl(deps, body);
      const absolute = (url: string) => absoluteUrl(url, origin(c));
      return {
        ...upload,
        presignedUrl: upload.presignedUrl && absolute(upload.presignedUrl),
        // Local part links are /files paths like the single PUT's; S3's are absolute already.
        multipart: upload.multipart && {
          ...upload.multipart,
          parts: upload.multipart.parts.map((part) => ({ ...part, url: absolute(part.url) })),
        },
      };
    })
    .on(movies.adminMultipartPartUrls, async ({ body }, c) => {
      const fresh = await refreshPartUrls(deps, body);
      return { ...fresh, parts: fresh.parts.map((part) => ({ ...part, url: absoluteUrl(part.url, origin(c)) })) };
    })
    .on(movies.adminMultipartComplete, ({ body }) => completeMultipart(deps, body))
    .on(movies.adminMultipartAbort, ({ body }) => abortMultipart(deps, body))
    .on(movies.adminCreateMovie, ({ body, principal }, c) => createMovie(deps, principal.user, body, origin(c)))
    .on(movies.adminToggleMovie, ({ params, body }, c) => setMovieActive(deps, params.id, body.is_active, origin(c)))
    .on(movies.adminUpdateMovie, ({ params, body }, c) => updateMovie(deps, params.id, body, origin(c)))
    .on(movies.adminAttachPlans, ({ params, body }, c) => attachPlans(deps, params.id, body.planIds, origin(c)))
    .on(movies.adminDeleteMovie, ({ params }) => deleteMovie(deps, params.id))
    .on(movies.adminRetryRendition, async ({ params }, c) => {
      await retryRendition(deps, params.id, params.kind);
      return adminMovieById(deps, params.id, origin(c));
    })
    // The library answers carry an ETag and are revalidated by the browser (docs/decisions/0066-library-etags.md).
    .on(movies.userMovies, async ({ query }, c) =>
      revalidatedJson(c, await listUserMovies(deps, caller(c), query, origin(c), hidden(c))),
    )
    .on(movies.userMovie, async ({ params }, c) =>
      revalidatedJson(c, await getUserMovie(deps, caller(c), params.id, origin(c), hidden(c))),
    )
    .on(movies.publicMovies, async ({ query }, c) =>
      revalidatedJson(c, await listPublicMovies(deps, query, origin(c))),
    );
}
