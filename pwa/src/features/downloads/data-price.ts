import { contracts, DEFAULT_DATA_PRICE_PER_GB_UGX } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-client.ts';
import { useDownloadSettings } from './settings.ts';

/** The operator's price of 1 GB of data; the shared default while it loads or when the server cannot say. */
export function useOperatorDataPrice(): number {
  const query = useQuery({
    queryKey: queryKeys.dataPrice,
    queryFn: () => api(contracts.settings.dataPrice),
    staleTime: 10 * 60_000,
  });
  return query.data?.dataPricePerGbUgx ?? DEFAULT_DATA_PRICE_PER_GB_UGX;
}

/** The price sizes are costed at for this person: their own bundle's price when they gave one, else the operator's. */
export function useDataPrice(): number {
  const own = useDownloadSettings().bundlePricePerGbUgx;
  const operator = useOperatorDataPrice();
  return own ?? operator;
}
