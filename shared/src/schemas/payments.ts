import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

export const MOBILE_NETWORKS = ['MTNmobilemoney', 'Mobile_Airtel_UG'] as const;
export const MobileNetwork = z.enum(MOBILE_NETWORKS, { message: 'Please select a valid mobile network operator.' });
export type MobileNetwork = z.infer<typeof MobileNetwork>;

export const PaymentStatus = z.enum(['pending', 'completed', 'failed', 'expired', 'review']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** `amount` and `currency` are accepted as the spec's client sends them, but the plan's price is what is charged. */
export const InitiatePaymentRequest = z.object({
  subscription_plan_id: Id,
  amount: z.union([z.number(), z.string()]).optional(),
  currency: z.literal('UGX', { message: 'Only UGX is accepted.' }).optional(),
  description: z.string().max(200).optional(),
});
export type InitiatePaymentRequest = z.input<typeof InitiatePaymentRequest>;

export const InitiatePaymentResponse = z.object({
  transaction_id: z.string(),
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

export const PaymentOptionsResponse = z.object({ mobileoption: z.array(PaymentOption) });

export const TokenParams = z.object({ token: z.string().trim().min(1).max(100) });
export const TransactionParams = z.object({ transaction_id: Id });

export const ChargeMobileRequest = z.object({
  transaction_id: Id,
  phoneNumber: z
    .string({ message: 'Please enter your phone number' })
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(
      z
        .string()
        .min(1, 'Please enter your phone number')
        .regex(/^(256|0)(7\d|20)\d{7}$/, 'Please enter a valid Uganda phone number (e.g., 256712345678 or 0712345678)'),
    ),
  mno: MobileNetwork,
});
export type ChargeMobileRequest = z.input<typeof ChargeMobileRequest>;

export const ChargeMobileResponse = z.object({ instructions: z.string(), status: PaymentStatus });

/** A payment as the server knows it now: from verify, and from the checkout result pages' look-up. */
export const VerifyPaymentResponse = z.object({
  status: PaymentStatus,
  resultExplanation: z.string(),
  transaction_id: z.string(),
  plan_name: z.string(),
  amount: z.number().int(),
  subscription_end_date: IsoDateTime.nullable(),
});
export type VerifyPaymentResponse = z.infer<typeof VerifyPaymentResponse>;

export const PaymentHistoryEntry = z.object({
  transaction_id: z.string(),
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
