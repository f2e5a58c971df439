import type { UssdCallbackRequest } from '@filamu/shared';
import { con, end, type UssdAnswer } from './protocol.ts';
import { type UnlockDeps, unlockByUssd } from './unlock.ts';

/** The menu's screens (GSM-7, one screen each). */
export const MENU_SCREENS = {
  welcome: 'Filamu\n1. Unlock a film',
  askCode: 'Type the code on your Filamu screen',
  unknownChoice: 'Choose 1 to unlock a film. Dial again to start over.',
} as const;

/**
 * One step of a session: the gateway sends everything typed so far (`text`, inputs joined with `*`), so the menu
 * keeps no state of its own and a step sent twice is answered the same way. `1*<code>` unlocks; a code typed with `*`
 * between its groups arrives as several inputs and is read as one.
 */
export async function answerUssd(deps: UnlockDeps, call: UssdCallbackRequest): Promise<UssdAnswer> {
  const inputs = call.text === '' ? [] : call.text.split('*');
  if (inputs.length === 0) return con(MENU_SCREENS.welcome);
  if (inputs[0]!.trim() !== '1') return end(MENU_SCREENS.unknownChoice);
  if (inputs.length === 1) return con(MENU_SCREENS.askCode);
  return unlockByUssd(deps, call.phoneNumber, inputs.slice(1).join('*'));
}
