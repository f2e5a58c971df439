// The payment gateway as the app sees it: the calls it makes to DPO and what each answers.
import { type MobileOption } from './xml.ts';

/** DPO's Uganda mobile-money identifiers (dpo-protocol §4.4). Prefer `paymentName` from getMobilePaymentOptions. */
export const UGANDA_MNO = { mtn: 'MTNmobilemoney', airtel: 'Mobile_Airtel_UG' } as const;

export type DpoOperation =
  'createToken' | 'GetMobilePaymentOptions' | 'ChargeTokenMobile' | 'verifyToken' | 'cancelToken';

interface CreateTokenInput {
  /** Our own reference (the payment's transaction_id); sent with CompanyRefUnique=1. */
  companyRef: string;
  /** Major units; whole shillings for UGX; at most 2 decimals otherwise. */
  amount: number;
  /** ISO 4217, e.g. 'UGX'. */
  currency: string;
  /** Service description shown by DPO; reduced to plain text (P14). */
  description: string;
  customerPhone?: string;
  customerEmail?: string;
  redirectUrl?: string;
  backUrl?: string;
  /** ServiceDate, sent as `YYYY/MM/DD HH:MM` in East Africa Time (UTC+3). */
  serviceDate: Date;
}

interface CreateTokenResult {
  /** DPO's TransToken (the spec's dpo_token). */
  transToken: string;
  /** DPO's TransRef (appears as TransactionRef in pushes). */
  transRef: string;
  code: string;
  explanation: string;
  /** When the token stops being payable (PTL from `clock.now()` at creation). */
  expiresAt: Date;
}

interface MobileOptionsResult {
  code: string | undefined;
  explanation: string;
  options: MobileOption[];
}

interface ChargeMobileInput {
  transToken: string;
  /** Uganda number in any usual form (07…, +256…, 256…); sent as 256XXXXXXXXX. */
  phoneNumber: string;
  /** `paymentName` as returned by getMobilePaymentOptions (e.g. MTNmobilemoney, Mobile_Airtel_UG). */
  mno: string;
  country: 'uganda';
}

interface ChargeMobileResult {
  /** '130' ("New invoice": the prompt is on its way — NOT a payment) or '000'. */
  code: string;
  explanation: string;
  /** Instructions for the customer, entities decoded; render as plain text. */
  instructions: string;
  steps: string[];
  /** DPO's RedirectOption flag; logged and otherwise ignored (P9). */
  redirectOption: boolean;
}

/**
 * The normalised verifyToken outcome (security R16):
 * only `paid` may grant, and only after the amount, currency and CompanyRef are checked; `review` is never granted.
 */
export type VerifyOutcome = 'paid' | 'review' | 'pending' | 'declined' | 'expired' | 'cancelled' | 'error';

export interface VerifyResult {
  outcome: VerifyOutcome;
  /** The raw 3-digit code as a string ('000', never 0). */
  code: string;
  explanation: string;
  transactionAmount?: string;
  transactionCurrency?: string;
  transactionFinalAmount?: string;
  transactionFinalCurrency?: string;
  companyRef?: string;
  transRef?: string;
  transactionApproval?: string;
  mobilePaymentRequest?: string;
  /** Every text element of the response, for the payment log (R18); the payer's phone, name and email masked. */
  raw: Record<string, string>;
  checkedAt: Date;
}

export interface PaymentGateway {
  createToken(input: CreateTokenInput): Promise<CreateTokenResult>;
  getMobilePaymentOptions(transToken: string): Promise<MobileOptionsResult>;
  chargeTokenMobile(input: ChargeMobileInput): Promise<ChargeMobileResult>;
  /**
   * Never throws for a DPO answer: codes map to an outcome. Throws GatewayError only when DPO could not be read.
   * `markVerified` is DPO's VerifyTransaction (default 1, as DPO's); send false while merely polling (§6.1).
   */
  verifyToken(transToken: string, options?: { markVerified?: boolean }): Promise<VerifyResult>;
  cancelToken(transToken: string): Promise<{ code: string; explanation: string }>;
}

/**
 * One request/response exchange, for the payment log (R18). The company token is already redacted, and the payer's
 * phone, name and email masked (personal-data.ts).
 */
export interface GatewayExchange {
  operation: DpoOperation;
  attempt: number;
  at: Date;
  durationMs: number;
  requestXml: string;
  httpStatus?: number;
  responseXml?: string;
  error?: string;
}
