/**
 * Africa's Talking bulk SMS, as documented (decision 0146): `POST <base>/version1/messaging`, form-encoded
 * `username`, `to` (comma-separated, international format), `message`, optional `from` (sender id or short code);
 * headers `apiKey` and `Accept: application/json`. The answer names each recipient with a `statusCode`:
 * 100 Processed, 101 Sent, 102 Queued (accepted); 401–409 refusals; 500–502 gateway trouble. A delivery report is
 * POSTed form-encoded to the account's callback with `id` (the messageId), `status`, `phoneNumber`, `networkCode`,
 * `failureReason` and `retryCount`. The adapter and the simulator share only these shapes.
 */

export const AT_MESSAGING_PATH = '/version1/messaging';
/** User data (the account's balance): `GET <base>/version1/user?username=…`, header `apiKey`, decision 0157. */
export const AT_USER_PATH = '/version1/user';

/** The answer of the user-data endpoint: the balance as the gateway writes it, e.g. "UGX 1234.0000". */
export interface AtUserData {
  UserData: { balance: string };
}

/** The user-data URL beside a messaging URL (live or sandbox): the same host and version, `/user`. */
export const userDataUrl = (messagingUrl: string) => messagingUrl.replace(/\/messaging\/?$/, '/user');

export interface AtRecipient {
  statusCode: number;
  number: string;
  status: string;
  cost: string;
  messageId: string;
  messageParts?: number;
}

export interface AtSendResponse {
  SMSMessageData: { Message: string; Recipients: AtRecipient[] };
}

export const AT_STATUS: Record<number, string> = {
  100: 'Processed',
  101: 'Success',
  102: 'Queued',
  401: 'RiskHold',
  402: 'InvalidSenderId',
  403: 'InvalidPhoneNumber',
  404: 'UnsupportedNumberType',
  405: 'InsufficientBalance',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  409: 'DoNotDisturbRejection',
  500: 'InternalServerError',
  501: 'GatewayError',
  502: 'RejectedByGateway',
};

/** The gateway took the message: it will try to deliver it, and a delivery report will follow. */
export const isAccepted = (code: number) => code >= 100 && code <= 102;
/**
 * Refusals worth trying again later (our balance, the gateway's own trouble); the others (a bad number, a
 * blacklisted or DND subscriber, a refused sender id) will not change by waiting.
 */
export const isRetryableRefusal = (code: number) => code === 405 || code === 500 || code === 501;

/** Delivery report statuses: final ones change the outbox; Sent/Submitted/Buffered are on the way. */
export const DELIVERED_STATUSES = ['Success'];
export const UNDELIVERED_STATUSES = ['Failed', 'Rejected', 'Expired'];

export interface AtDeliveryReport {
  id: string;
  status: string;
  phoneNumber: string;
  networkCode?: string;
  failureReason?: string;
  retryCount?: string;
}

/** Reads a form-encoded delivery report; null when it lacks the fields we act on. Bounded: ids are short. */
export function parseDeliveryReport(form: URLSearchParams): AtDeliveryReport | null {
  const id = form.get('id');
  const status = form.get('status');
  const phoneNumber = form.get('phoneNumber') ?? '';
  if (!id || !status || id.length > 100 || status.length > 40 || phoneNumber.length > 40) return null;
  const optional = (name: string) => {
    const value = form.get(name);
    return value === null ? undefined : value.slice(0, 200);
  };
  return {
    id,
    status,
    phoneNumber,
    networkCode: optional('networkCode'),
    failureReason: optional('failureReason'),
    retryCount: optional('retryCount'),
  };
}

/** `+256…` as the gateway wants it, from our canonical 256XXXXXXXXX. */
export const internationalNumber = (canonical: string) => (canonical.startsWith('+') ? canonical : `+${canonical}`);

/** The GSM 03.38 basic character set: one septet each. */
export const GSM_7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Its extension table: two septets each (an escape, then the character). */
export const GSM_7_EXTENDED = '^{}\\[~]|€';
/** Typographic characters people type (or paste) that GSM-7 lacks, as GSM-7 writes them. */
export const GSM_LOOK_ALIKES: Readonly<Record<string, string>> = {
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  '\u00a0': ' ',
};

/** How many SMS parts a text takes: 160/153 GSM-7 septets (extension characters count two), else 70/67 UCS-2. */
export function messageParts(text: string): number {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (GSM_7.includes(ch)) septets += 1;
    else if (GSM_7_EXTENDED.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  const units = [...text].reduce((n, ch) => n + (ch.codePointAt(0)! > 0xffff ? 2 : 1), 0);
  return units <= 70 ? 1 : Math.ceil(units / 67);
}
