import { z } from 'zod';
import { MOBILE_NETWORKS, type MobileNetworkCode, paymentNumberProblem } from '../mobile-money.ts';
import { networkOfNumber, PHONE_INPUT_MAX } from '../phone-networks.ts';
import { Id, IsoDateTime } from './common.ts';

export const MobileNetwork = z.enum(MOBILE_NETWORKS, { message: 'Please select a valid mobile network operator.' });
export type MobileNetwork = MobileNetworkCode;

/** Longest `amount` accepted as text: a UGX price with decimals and spaces to spare. */
export const AMOUNT_TEXT_MAX = 20;

export const PaymentStatus = z.enum(['pending', 'completed', 'failed', 'expired', 'review']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/**
 * The short reference a person reads out to support: FLM- and five characters of an alphabet without 0/O/1/I, so
 * nothing is misread over the phone (decision 0180). A clash on insert takes a new one; old clashes got eight.
 */
export const PAYMENT_REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const PAYMENT_REFERENCE_PREFIX = 'FLM-';
/** The characters after the prefix. */
export const PAYMENT_REFERENCE_LENGTH = 5;

/** `amount` and `currency` are accepted as the spec's client sends them, but the plan's price is what is charged. */
export const InitiatePaymentRequest = z.object({
  subscription_plan_id: Id,
  // A price as text is a few digits; the bound comes before any reading of it (decision 0102).
  amount: z.union([z.number(), z.string().max(AMOUNT_TEXT_MAX, 'The amount is too long.')]).optional(),
  currency: z.literal('UGX', { message: 'Only UGX is accepted.' }).optional(),
  description: z.string().max(200).optional(),
});
export type InitiatePaymentRequest = z.input<typeof InitiatePaymentRequest>;

export const InitiatePaymentResponse = z.object({
  transaction_id: z.string(),
  reference: z.string(),
  dpo_token: z.string(),
  amount: z.number().int(),
  currency: z.literal('UGX'),
  plan_name: z.string(),
});
export type InitiatePaymentResponse = z.infer<typeof InitiatePaymentResponse>;

export const PaymentOption = z.object({
  paymentname: z.string(),
  logo: z.string(),
  instructions: z.string(),
  country: z.string(),
  countryCode: z.string(),
});
export type PaymentOption = z.infer<typeof PaymentOption>;

export const PaymentOptionsResponse = z.object({
  mobileoption: z.array(PaymentOption),
  /** The server pays through the built-in DPO simulator: the payment screen shows its test numbers (decision 0182). */
  sandbox: z.boolean(),
});

export const TokenParams = z.object({ token: z.string().trim().min(1).max(100) });
export const TransactionParams = z.object({ transaction_id: Id });

export const ChargeMobileRequest = z.object({
  transaction_id: Id,
  /** Any spelling of an MTN or Airtel number, yielded as `256XXXXXXXXX`; whether it suits `mno` is the route's call. */
  phoneNumber: z
    .string({ message: 'Please enter your phone number' })
    .max(PHONE_INPUT_MAX, 'Phone number is too long.')
    .transform((value, ctx) => {
      const problem = paymentNumberProblem(value, 'MTNmobilemoney');
      if (problem && problem.kind !== 'wrong_network') {
        ctx.addIssue({ code: 'custom', message: problem.message });
        return z.NEVER;
      }
      return networkOfNumber(value).canonical!;
    }),
  mno: MobileNetwork,
});
export type ChargeMobileRequest = z.input<typeof ChargeMobileRequest>;

export const ChargeMobileResponse = z.object({ instructions: z.string(), status: PaymentStatus });

/** A payment as the server knows it now: from verify, and from the checkout result pages' look-up. */
export const VerifyPaymentResponse = z.object({
  status: PaymentStatus,
  resultExplanation: z.string(),
  transaction_id: z.string(),
  reference: z.string(),
  plan_name: z.string(),
  amount: z.number().int(),
  subscription_end_date: IsoDateTime.nullable(),
  /** Set when the payer cancelled it (it is then `failed`). */
  cancelled: z.boolean(),
});
export type VerifyPaymentResponse = z.infer<typeof VerifyPaymentResponse>;

export const PaymentHistoryEntry = z.object({
  transaction_id: z.string(),
  reference: z.string(),
  dpo_token: z.string().nullable(),
  plan_name: z.string(),
  amount: z.number().int(),
  currency: z.literal('UGX'),
  status: PaymentStatus,
  mno: MobileNetwork.nullable(),
  phone: z.string().nullable(),
  result_explanation: z.string().nullable(),
  created_at: IsoDateTime,
  completed_at: IsoDateTime.nullable(),
});
export type PaymentHistoryEntry = z.infer<typeof PaymentHistoryEntry>;
export const PaymentHistory = z.object({ payments: z.array(PaymentHistoryEntry) });

/** The payment waiting for the payer's phone, if any: shown on the dashboard and plans page (decision 0181). */
export const WaitingPayment = z.object({
  transaction_id: z.string(),
  reference: z.string(),
  dpo_token: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  amount: z.number().int(),
  mno: MobileNetwork.nullable(),
  phone: z.string().nullable(),
  prompt_sent_at: IsoDateTime,
  expires_at: IsoDateTime,
});
export type WaitingPayment = z.infer<typeof WaitingPayment>;
export const WaitingPaymentResponse = z.object({ payment: WaitingPayment.nullable() });
export type WaitingPaymentResponse = z.infer<typeof WaitingPaymentResponse>;

/* ---- Admin: every payment, and review decisions (ADR 0052) ---- */

export const PAYMENT_STATUSES = PaymentStatus.options;
export const ADMIN_PAYMENTS_PAGE_SIZE_MAX = 100;
export const REVIEW_NOTE_MAX = 500;

export const AdminPaymentListQuery = z.object({
  status: PaymentStatus.optional(),
  /** Matches the short reference (FLM-7K3Q9), the payer's email or name, the phone, the DPO token or reference, or the payment id. */
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PAYMENTS_PAGE_SIZE_MAX).default(25),
});
export type AdminPaymentListQuery = z.input<typeof AdminPaymentListQuery>;

export const ReviewResolution = z.enum(['activated', 'refused']);
export type ReviewResolution = z.infer<typeof ReviewResolution>;

export const AdminPayment = z.object({
  id: z.string(),
  reference: z.string(),
  user: z.object({ id: z.string(), fullName: z.string(), email: z.string() }).nullable(),
  planId: z.string(),
  planName: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  phone: z.string().nullable(),
  mno: z.string().nullable(),
  dpoToken: z.string().nullable(),
  dpoReference: z.string().nullable(),
  status: PaymentStatus,
  resultCode: z.string().nullable(),
  explanation: z.string(),
  /** What DPO reported as paid when it settled the payment (decimal text as DPO sends it), if it said. */
  reportedAmount: z.string().nullable(),
  reportedCurrency: z.string().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  settledAt: IsoDateTime.nullable(),
  resolution: z
    .object({
      action: ReviewResolution,
      note: z.string(),
      at: IsoDateTime,
      by: z.object({ id: z.string(), fullName: z.string(), email: z.string() }).nullable(),
    })
    .nullable(),
});
export type AdminPayment = z.infer<typeof AdminPayment>;

export const PaymentStatusCounts = z.object({
  all: z.number().int(),
  pending: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  expired: z.number().int(),
  review: z.number().int(),
});
export type PaymentStatusCounts = z.infer<typeof PaymentStatusCounts>;

export const AdminPaymentList = z.object({
  payments: z.array(AdminPayment),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Payments matching the status and search (all pages). */
  total: z.number().int(),
  pageCount: z.number().int(),
  /** Per status for the search alone, for the filter chips. */
  counts: PaymentStatusCounts,
  /** Every payment waiting for review, whatever the filters. */
  needsReview: z.number().int(),
});
export type AdminPaymentList = z.infer<typeof AdminPaymentList>;

export const ResolvePaymentRequest = z.object({
  action: z.enum(['activate', 'refuse'], { message: 'Choose to activate the subscription or refuse the payment.' }),
  note: z
    .string({ message: 'A note is required.' })
    .trim()
    .min(1, 'A note is required.')
    .max(REVIEW_NOTE_MAX, `The note must be at most ${REVIEW_NOTE_MAX} characters.`),
});
export type ResolvePaymentRequest = z.input<typeof ResolvePaymentRequest>;

export const AdminPaymentResult = z.object({ payment: AdminPayment, message: z.string() });
export type AdminPaymentResult = z.infer<typeof AdminPaymentResult>;
