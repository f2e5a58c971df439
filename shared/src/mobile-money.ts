import { displayUgandaPhone } from './phone.ts';
import { type MoneyNetwork, networkOfNumber, PHONE_EXAMPLE } from './phone-networks.ts';

/** DPO's identifiers for the two mobile-money networks, as its API names them. */
export const MOBILE_NETWORKS = ['MTNmobilemoney', 'Mobile_Airtel_UG'] as const;
export type MobileNetworkCode = (typeof MOBILE_NETWORKS)[number];

/**
 * What the screens and the DPO simulator say about each Uganda mobile-money network. One place for the USSD
 * fallback (docs/decisions/0025): the network card and the gateway's own steps must never name different codes.
 */
export interface MobileMoneyNetwork {
  id: MobileNetworkCode;
  name: string;
  /** Which numbers it serves (phone-networks.ts). */
  numbers: MoneyNetwork;
  /** The short mark drawn on the network's badge. */
  short: string;
  /** Dialled when the payment prompt does not appear, to approve the waiting payment. */
  ussd: string;
  /** The USSD menu entry that lists waiting payments. */
  approvalsMenu: string;
  app: string;
}

export const MOBILE_MONEY: Record<MobileNetworkCode, MobileMoneyNetwork> = {
  MTNmobilemoney: {
    id: 'MTNmobilemoney',
    name: 'MTN Mobile Money',
    numbers: 'mtn',
    short: 'MTN',
    ussd: '*165#',
    approvalsMenu: 'My Approvals',
    app: 'MyMTN app',
  },
  Mobile_Airtel_UG: {
    id: 'Mobile_Airtel_UG',
    name: 'Airtel Money',
    numbers: 'airtel',
    short: 'Airtel',
    ussd: '*185#',
    approvalsMenu: 'Payments',
    app: 'Airtel Money app',
  },
};

export function isMobileNetwork(value: string): value is MobileNetworkCode {
  return Object.hasOwn(MOBILE_MONEY, value);
}

/** "No prompt? Dial *165# and select My Approvals, or use the MyMTN app." */
export function ussdFallback(network: MobileMoneyNetwork): string {
  return `No prompt? Dial ${network.ussd} and select ${network.approvalsMenu}, or use the ${network.app}.`;
}

/** The method that pays from numbers of `network`. */
export function mobileNetworkFor(network: MoneyNetwork): MobileMoneyNetwork {
  return network === 'mtn' ? MOBILE_MONEY.MTNmobilemoney : MOBILE_MONEY.Mobile_Airtel_UG;
}

export type PaymentNumberProblem =
  | { kind: 'required' | 'invalid' | 'unserved'; message: string }
  | { kind: 'wrong_network'; message: string; network: MobileNetworkCode };

const EXAMPLES = `an MTN number like ${PHONE_EXAMPLE.mtn} or an Airtel number like ${PHONE_EXAMPLE.airtel}`;

/**
 * What is wrong with a number for paying with `chosen`, in the words both the payment step and the API use; null
 * when it can pay. The network is known from the number alone, so a wrong one is caught before any charge.
 */
export function paymentNumberProblem(raw: string, chosen: MobileNetworkCode): PaymentNumberProblem | null {
  if (!raw.trim()) return { kind: 'required', message: 'Please enter your phone number' };
  const { canonical, network } = networkOfNumber(raw);
  if (!canonical) return { kind: 'invalid', message: `Enter a Uganda phone number: ${EXAMPLES}.` };
  const shown = displayUgandaPhone(canonical);
  if (!network) return { kind: 'unserved', message: `${shown} is not an MTN or Airtel number. Pay from ${EXAMPLES}.` };
  const own = MOBILE_MONEY[chosen];
  if (network === own.numbers) return null;
  const right = mobileNetworkFor(network);
  return {
    kind: 'wrong_network',
    network: right.id,
    message: `${shown} is an ${right.short} number. Pay with ${right.name}, or use an ${own.short} number like ${PHONE_EXAMPLE[own.numbers]}.`,
  };
}
