import { defineContract } from '../contract.ts';
import { IdParams } from '../schemas/common.ts';
import {
  AdminPaymentList,
  AdminPaymentListQuery,
  AdminPaymentResult,
  ResolvePaymentRequest,
} from '../schemas/payments.ts';

const tag = 'Payments (admin)';

export const listPayments = defineContract({
  method: 'get',
  path: '/admin/payments',
  summary: 'Every payment, newest first, filtered by status and search, with counts per status',
  tag,
  access: 'admin',
  query: AdminPaymentListQuery,
  response: AdminPaymentList,
});

export const resolvePayment = defineContract({
  method: 'post',
  path: '/admin/payments/:id/resolve',
  summary: 'Decide a payment under review: activate the subscription or refuse it, with a note',
  tag,
  access: 'admin',
  params: IdParams,
  body: ResolvePaymentRequest,
  response: AdminPaymentResult,
});

export const recheckPayment = defineContract({
  method: 'post',
  path: '/admin/payments/:id/recheck',
  summary: 'Ask DPO about a pending payment now and settle it as the reconciler would',
  tag,
  access: 'admin',
  params: IdParams,
  response: AdminPaymentResult,
});
