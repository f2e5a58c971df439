import { defineContract } from '../contract.ts';
import { MessageList, MessageListQuery, ResendParams, ResendResponse, SmsGatewayState } from '../schemas/messages.ts';

const tag = 'Messages';

export const listMessages = defineContract({
  method: 'get',
  path: '/admin/messages',
  summary: 'Every SMS, email and push message, newest first, by channel, status and phone or email; keyset pages',
  tag,
  access: 'admin',
  query: MessageListQuery,
  response: MessageList,
});

export const resendMessage = defineContract({
  method: 'post',
  path: '/admin/messages/:channel/:id/resend',
  summary: 'Queue a copy of an SMS or email (never one that held a code or password); rate-limited',
  tag,
  access: 'admin',
  params: ResendParams,
  response: ResendResponse,
  status: 201,
});

export const smsGatewayState = defineContract({
  method: 'get',
  path: '/admin/sms/gateway',
  summary: "The SMS gateway's balance as it reports it, or unavailable",
  tag,
  access: 'admin',
  response: SmsGatewayState,
});
