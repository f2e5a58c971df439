import { contracts, type SigningKeyResponse } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { downloaderOf } from '../movies/entitlement.ts';
import { manifestOf } from './manifests.ts';

const { filmFiles } = contracts;

export function filmTransferRoutes(router: ContractRouter, deps: Deps): void {
  const manifestDeps = { db: deps.database.db, clock: deps.clock, licenceSigner: deps.licenceSigner };
  router
    .on(filmFiles.filmManifest, ({ params, query }, c) =>
      manifestOf(manifestDeps, downloaderOf(c.get('principal'), deps.clock.now()), params.id, query),
    )
    .on(filmFiles.signingKey, async () => ({ jwk: deps.licenceSigner.publicJwk }) as SigningKeyResponse);
}
