import type { MobileNetwork } from './schemas/payments.ts';

/**
 * What the screens and the DPO simulator say about each Uganda mobile-money network. One place for the USSD
 * fallback (docs/decisions/0025): the network card and the gateway's own steps must never name different codes.
 */
export interface MobileMoneyNetwork {
  id: MobileNetwork;
  name: string;
  /** The short mark drawn on the network's badge. */
  short: string;
  /** Dialled when the payment prompt does not appear, to approve the waiting payment. */
  ussd: string;
  /** The USSD menu entry that lists waiting payments. */
  approvalsMenu: string;
  app: string;
}

export const MOBILE_MONEY: Record<MobileNetwork, MobileMoneyNetwork> = {
  MTNmobilemoney: {
    id: 'MTNmobilemoney',
    name: 'MTN Mobile Money',
    short: 'MTN',
    ussd: '*165#',
    approvalsMenu: 'My Approvals',
    app: 'MyMTN app',
  },
  Mobile_Airtel_UG: {
    id: 'Mobile_Airtel_UG',
    name: 'Airtel Money',
    short: 'Airtel',
    ussd: '*185#',
    approvalsMenu: 'Payments',
    app: 'Airtel Money app',
  },
};

export function isMobileNetwork(value: string): value is MobileNetwork {
  return Object.hasOwn(MOBILE_MONEY, value);
}

/** "No prompt? Dial *165# and select My Approvals, or use the MyMTN app." */
export function ussdFallback(network: MobileMoneyNetwork): string {
  return `No prompt? Dial ${network.ussd} and select ${network.approvalsMenu}, or use the ${network.app}.`;
}
