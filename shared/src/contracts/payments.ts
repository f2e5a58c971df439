import { defineContract } from '../contract.ts';
import {
  ChargeMobileRequest,
  ChargeMobileResponse,
  InitiatePaymentRequest,
  InitiatePaymentResponse,
  PaymentHistory,
  PaymentOptionsResponse,
  TokenParams,
  TransactionParams,
  VerifyPaymentResponse,
  WaitingPaymentResponse,
} from '../schemas/payments.ts';

const tag = 'Payments';

export const initiate = defineContract({
  method: 'post',
  path: '/payments/initiate',
  summary: "Start paying for a plan: creates the payment and its DPO token at the plan's price",
  tag,
  access: 'user',
  body: InitiatePaymentRequest,
  response: InitiatePaymentResponse,
  status: 201,
});

export const paymentOptions = defineContract({
  method: 'get',
  path: '/payments/payment-options/:token',
  summary: 'Mobile-money options for a payment token',
  tag,
  access: 'user',
  params: TokenParams,
  response: PaymentOptionsResponse,
});

export const chargeMobile = defineContract({
  method: 'post',
  path: '/payments/charge-mobile',
  summary: "Send the mobile-money prompt to the payer's phone",
  tag,
  access: 'user',
  body: ChargeMobileRequest,
  response: ChargeMobileResponse,
});

export const verify = defineContract({
  method: 'get',
  path: '/payments/verify/:token',
  summary: 'Check a payment with DPO and activate the subscription once it is paid',
  tag,
  access: 'user',
  params: TokenParams,
  response: VerifyPaymentResponse,
});

export const transaction = defineContract({
  method: 'get',
  path: '/payments/transactions/:transaction_id',
  summary: "One of the signed-in user's payments as it stands now (asked of DPO while it is pending)",
  tag,
  access: 'user',
  params: TransactionParams,
  response: VerifyPaymentResponse,
});

export const history = defineContract({
  method: 'get',
  path: '/payments/history',
  summary: "The signed-in user's payments, newest first",
  tag,
  access: 'user',
  response: PaymentHistory,
});

export const waiting = defineContract({
  method: 'get',
  path: '/payments/waiting',
  summary: "The signed-in user's payment waiting for the phone's approval, if any",
  tag,
  access: 'user',
  response: WaitingPaymentResponse,
});

export const cancel = defineContract({
  method: 'post',
  path: '/payments/transactions/:transaction_id/cancel',
  summary: 'Cancel a payment waiting for the phone: closed at DPO first, so a late approval cannot charge',
  tag,
  access: 'user',
  params: TransactionParams,
  response: VerifyPaymentResponse,
});
