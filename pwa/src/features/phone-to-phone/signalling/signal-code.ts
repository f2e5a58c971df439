import { bytesToCode, cleanCode, codeToBytes } from './code-text.ts';
import { bytesToEssentials, essentialsToBytes, expectedLength } from './essentials-bytes.ts';
import { p2pT } from '../messages.ts';
import { describeSession, type SessionType, sessionEssentials } from './session-essentials.ts';

export { groupForTyping } from './code-text.ts';

/**
 * One phone's half of the WebRTC handshake as a code (decision 0243): shown as a QR code, or typed by hand when the
 * camera cannot read it. `encodeSignal` keeps only what the other phone cannot rebuild; `decodeSignal` gives back a
 * description that Chromium's `setRemoteDescription` takes, or says in plain words why the code is not right.
 */

export interface SignalDescription {
  type: SessionType;
  sdp: string;
}

export type SignalProblemKind =
  'empty' | 'too-long' | 'not-a-code' | 'incomplete' | 'mistyped' | 'newer-version' | 'wrong-phone';

export interface SignalProblem {
  kind: SignalProblemKind;
  message: string;
}

export type SignalReading = { ok: true; description: SignalDescription } | { ok: false; problem: SignalProblem };

/**
 * The longest code there can be (8 IPv6 candidates, the longest credentials) is 420 characters; typed with a space
 * every four that is 525. Anything longer is refused before it is read.
 */
export const MAX_TYPED_LENGTH = 640;

const checkAgainstScreen = () => p2pT('phone-to-phone.code.checkScreen');

function problem(kind: SignalProblemKind, message: string): SignalReading {
  return { ok: false, problem: { kind, message } };
}

/** Throws when `description` is not Chromium's description of one data channel: a fault in the app, not the person's. */
export function encodeSignal(description: SignalDescription): string {
  return bytesToCode(essentialsToBytes(sessionEssentials(description)));
}

function wrongPhone(expected: SessionType): SignalReading {
  return expected === 'offer'
    ? problem('wrong-phone', p2pT('phone-to-phone.code.wrongPhone.offer'))
    : problem('wrong-phone', p2pT('phone-to-phone.code.wrongPhone.answer'));
}

/**
 * The description a code carries. `expected` is the half this phone is waiting for — the receiver reads an offer,
 * the sender an answer — so a code read off the wrong phone is refused with words that say which one to use.
 */
export function decodeSignal(text: string, expected?: SessionType): SignalReading {
  if (text.length > MAX_TYPED_LENGTH) {
    return problem('too-long', p2pT('phone-to-phone.code.tooLong', { check: checkAgainstScreen() }));
  }
  const cleaned = cleanCode(text);
  if (!cleaned.ok) {
    return problem('not-a-code', p2pT('phone-to-phone.code.notACode', { character: cleaned.character }));
  }
  if (cleaned.code.length === 0) return problem('empty', p2pT('phone-to-phone.code.empty'));

  const read = codeToBytes(cleaned.code, (bytes) => {
    const length = expectedLength(bytes);
    return length !== null && bytes.length < length + 2;
  });
  if (!read.ok) {
    return read.problem === 'incomplete'
      ? problem('incomplete', p2pT('phone-to-phone.code.incomplete', { check: checkAgainstScreen() }))
      : problem('mistyped', p2pT('phone-to-phone.code.mistyped', { check: checkAgainstScreen() }));
  }

  const essentials = bytesToEssentials(read.payload);
  if (!essentials.ok) {
    return essentials.problem === 'unknown-version'
      ? problem('newer-version', p2pT('phone-to-phone.code.newerVersion'))
      : problem('mistyped', p2pT('phone-to-phone.code.mistyped', { check: checkAgainstScreen() }));
  }
  if (expected && essentials.essentials.type !== expected) return wrongPhone(expected);
  return { ok: true, description: describeSession(essentials.essentials) };
}
