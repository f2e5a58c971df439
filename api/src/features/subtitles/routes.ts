import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { publicOrigin } from '../../http/origin.ts';
import { downloaderOf } from '../movies/entitlement.ts';
import { deleteSubtitles, putSubtitles, readSubtitles } from './subtitles.ts';

const { subtitles } = contracts;

export function subtitleRoutes(router: ContractRouter, deps: Deps): void {
  const origin = (c: Context<AppEnv>) => publicOrigin(c, deps.config);
  router
    .on(subtitles.adminPutSubtitles, ({ params, body }, c) =>
      putSubtitles(deps, params.id, params.language, body, origin(c)),
    )
    .on(subtitles.adminDeleteSubtitles, ({ params }, c) => deleteSubtitles(deps, params.id, params.language, origin(c)))
    .on(subtitles.movieSubtitles, async ({ params }, c) => {
      const caller = downloaderOf(c.get('principal'), deps.clock.now());
      const vtt = await readSubtitles(deps, caller, params.id, params.language);
      c.header('Content-Type', `${subtitles.movieSubtitles.contentType}; charset=utf-8`);
      // Personal (the access rule is per person); the phone keeps its own copy in IndexedDB.
      c.header('Cache-Control', 'private, no-store');
      return c.body(vtt, 200);
    });
}
