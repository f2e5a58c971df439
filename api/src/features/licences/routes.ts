import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { downloaderOf } from '../movies/entitlement.ts';
import { checkLicences } from './check.ts';
import { licenceOfDownloaded } from './issue.ts';
import { takeDownMovie } from './take-down.ts';
import { loggedAdminAction } from '../../lib/admin-log.ts';

const { licences } = contracts;

export function licenceRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(licences.licenceOfDownloaded, ({ body }, c) => {
      const principal = c.get('principal');
      const downloader = downloaderOf(principal, deps.clock.now());
      const phone = { deviceId: principal.deviceId, devicePublicKey: body.devicePublicKey };
      return licenceOfDownloaded(deps, downloader, phone, body.movieId, { move: body.move });
    })
    .on(licences.checkLicences, ({ body }) => checkLicences(deps.database.db, body.ids))
    // Who took which film down, and why, goes to the log (decision 0207).
    .on(licences.takeDownMovie, ({ params, body, principal }) =>
      loggedAdminAction(
        deps.logger,
        principal.user.id,
        'movie_taken_down',
        { movieId: params.id },
        () => takeDownMovie(deps, params.id),
        body.reason,
      ),
    );
}
