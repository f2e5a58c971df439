import { contracts, DEFAULT_NIGHT_PRICE_PER_GB_UGX, DEFAULT_NIGHT_WINDOWS, type NightWindow } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useDataPrice } from '../data-price.ts';

const NIGHT_BUNDLE_QUERY_KEY = ['nightBundle'] as const;

export interface NightPrices {
  /** The price sizes are costed at by day: the person's own bundle's when they gave one, else the operator's. */
  dayPricePerGbUgx: number;
  nightPricePerGbUgx: number;
  windows: NightWindow[];
  /** False while the operator's figures load (the defaults are shown meanwhile, and when the server cannot say). */
  settled: boolean;
}

/** The operator's night bundle: its price and hours, the shared defaults until (or unless) the server says. */
export function useNightPrices(): NightPrices {
  const dayPrice = useDataPrice();
  const query = useQuery({
    queryKey: NIGHT_BUNDLE_QUERY_KEY,
    queryFn: () => api(contracts.nightBundle.nightBundle),
    staleTime: 10 * 60_000,
  });
  return {
    dayPricePerGbUgx: dayPrice,
    nightPricePerGbUgx: query.data?.nightPricePerGbUgx ?? DEFAULT_NIGHT_PRICE_PER_GB_UGX,
    windows: query.data?.windows ?? DEFAULT_NIGHT_WINDOWS,
    settled: !query.isPending,
  };
}
