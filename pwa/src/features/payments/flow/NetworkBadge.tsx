import { MOBILE_MONEY, type MobileNetwork } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';
import { NETWORK_TONE } from './steps.ts';

export function NetworkBadge({ network }: { network: MobileNetwork }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid h-10 min-w-14 shrink-0 place-items-center rounded-lg px-2 text-sm font-black',
        NETWORK_TONE[network],
      )}
    >
      {MOBILE_MONEY[network].short}
    </span>
  );
}
