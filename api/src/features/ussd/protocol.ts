import { USSD_SCREEN_CHARACTERS } from '@filamu/shared';
import { GSM_7, GSM_LOOK_ALIKES } from '../sms/protocol.ts';

/**
 * Africa's Talking's USSD protocol, as documented (decision 0249): for every step of a session the gateway POSTs,
 * form-encoded, `sessionId`, `serviceCode` (the code dialled), `phoneNumber` (`+256…`), `networkCode` and `text` — all
 * the person typed in the session so far, joined with `*` ("" on the first request) — and we answer `text/plain`:
 * `CON <screen>` shows the screen and waits for an answer, `END <screen>` shows it and ends the session. The adapter
 * (routes.ts) and the simulator (simulator.ts) share only these shapes.
 */

/** Under /api: Africa's Talking calls `<PUBLIC_URL>/api/ussd/callback?secret=<USSD_CALLBACK_SECRET>`. */
export const USSD_CALLBACK_PATH = '/ussd/callback';
/** A callback is a few hundred bytes of form fields. */
export const USSD_BODY_LIMIT_BYTES = 4 * 1024;

export type UssdKind = 'CON' | 'END';

export interface UssdAnswer {
  kind: UssdKind;
  text: string;
}

export const con = (text: string): UssdAnswer => ({ kind: 'CON', text: screenText(text) });
export const end = (text: string): UssdAnswer => ({ kind: 'END', text: screenText(text) });

/** The body of the answer, as the gateway reads it. */
export const answerBody = (answer: UssdAnswer) => `${answer.kind} ${answer.text}`;

/** Reads our answer as the gateway does: `CON ` or `END ` then the screen; null for anything else. */
export function readAnswer(body: string): UssdAnswer | null {
  const kind = body.slice(0, 4);
  if (kind !== 'CON ' && kind !== 'END ') return null;
  return { kind: kind === 'CON ' ? 'CON' : 'END', text: body.slice(4) };
}

/** What a screen may hold: GSM-7's basic characters, 182 of them (the handset shows nothing else reliably). */
export function fitsScreen(text: string): boolean {
  if (text.length > USSD_SCREEN_CHARACTERS) return false;
  for (const ch of text) if (!GSM_7.includes(ch)) return false;
  return true;
}

/**
 * Text as a handset can show it: every character outside GSM-7's basic set becomes its plain form (accents dropped,
 * curly quotes straightened) or `?`, and the whole is cut to one screen. Our own sentences are GSM-7 already; this is
 * for what comes from the database (a film's title).
 */
export function gsmText(text: string, max: number = USSD_SCREEN_CHARACTERS): string {
  let out = '';
  for (const ch of text.slice(0, max * 2)) {
    if (GSM_7.includes(ch)) out += ch;
    else if (GSM_LOOK_ALIKES[ch]) out += GSM_LOOK_ALIKES[ch];
    else {
      const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += bare.length > 0 && [...bare].every((c) => GSM_7.includes(c)) ? bare : '?';
    }
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/** Our screens are written to fit; one that does not is cut rather than refused by the handset. */
const screenText = (text: string) => (fitsScreen(text) ? text : gsmText(text));
