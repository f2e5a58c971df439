import { useSession } from '../../lib/session.ts';

export type Purchaser = 'loading' | 'guest' | 'user' | 'agent' | 'admin';

/** Who is looking at a payments screen: only a plain user is ever offered a purchase (docs/decisions/0026). */
export function usePurchaser(): Purchaser {
  const { status, isAdmin } = useSession();
  if (status === 'user' && isAdmin) return 'admin';
  return status;
}
