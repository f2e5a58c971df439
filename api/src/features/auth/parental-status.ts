import { type ParentalHides, type ParentalPinStatus } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { parentalPins, sessions } from '../../db/schema.ts';
import type { Principal } from '../../http/principal.ts';

// Here, not in parental-pin/: the profile shows it and the library and downloads filter by it, while parental-pin
// (set, change, enter the PIN) builds on auth's accounts and tokens; the unlock lives on the session row
// (decision 0217).

const iso = (date: Date) => date.toISOString();

/** The PIN as the user and their device see it: never the PIN, only the verifier the device checks offline. */
export async function parentalPinStatus(
  exec: Executor,
  userId: string,
  sessionId: string | undefined,
  now: Date,
): Promise<ParentalPinStatus> {
  const [pin] = await exec.select().from(parentalPins).where(eq(parentalPins.userId, userId));
  if (!pin) return { pinSet: false, hides: null, offlineVerifier: null, unlockedUntil: null, lockedUntil: null };
  const [session] = sessionId
    ? await exec.select({ until: sessions.parentalUnlockedUntil }).from(sessions).where(eq(sessions.id, sessionId))
    : [];
  const unlockedUntil = session?.until && session.until > now ? iso(session.until) : null;
  return {
    pinSet: true,
    hides: pin.hides,
    offlineVerifier: { salt: pin.salt, hash: pin.pinHash, iterations: pin.iterations },
    unlockedUntil,
    lockedUntil: pin.lockedUntil && pin.lockedUntil > now ? iso(pin.lockedUntil) : null,
  };
}

/**
 * What the PIN hides from this session now: its setting while a PIN is set and no right PIN was entered on
 * this session in the last 30 minutes; null when nothing is hidden. Read with the session (loadPrincipal), so it
 * costs the request no query.
 */
export function hiddenForSession(principal: Principal, now: Date): ParentalHides | null {
  if (principal.kind !== 'user' || !principal.parental) return null;
  const { hides, unlockedUntil } = principal.parental;
  return unlockedUntil && unlockedUntil > now ? null : hides;
}
