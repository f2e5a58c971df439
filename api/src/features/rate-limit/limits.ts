import type { Limit } from './limiter.ts';

/**
 * Every rate limit on a costly flow, in one place (security R19, ADR 0061). Chosen so a real person never meets
 * them: per account they sit far above a normal session's use; per address they are generous because most
 * Ugandan subscribers share a few carrier NAT addresses.
 */
const HOUR = 3600;

/** New accounts per client address; REGISTRATIONS_PER_IP_PER_HOUR (default 200) since campaigns vary. */
export const registrationPerIp = (max: number): Limit => ({
  name: 'register:ip',
  max,
  windowSeconds: HOUR,
  refusal: 'Too many new accounts have been created from your network',
});

/**
 * Sandbox mode only: requests to the DPO simulator per client address (each createToken writes a row). The app's
 * own calls count too (they come from its own address), so this sits far above a demo's use: ~10 calls a payment.
 */
export const dpoSandboxRequests: Limit = {
  name: 'dpo-sandbox:ip',
  max: 3000,
  windowSeconds: HOUR,
  refusal: 'Too many requests to the payment sandbox',
};

const PAYMENT_REFUSAL = 'Too many payments started';
export const paymentInitiation = {
  perAccount: { name: 'pay:user', max: 10, windowSeconds: HOUR, refusal: PAYMENT_REFUSAL },
  /** Every subscriber of a plan renews at its global expiry: a carrier address may carry hundreds in one hour. */
  perIp: { name: 'pay:ip', max: 3000, windowSeconds: HOUR, refusal: 'Too many payments started from your network' },
} satisfies Record<string, Limit>;

/** Each charge pushes a prompt to a real phone: a payer re-sends one or two, nobody needs more. */
const CHARGE_REFUSAL = 'Too many payment prompts sent';
export const mobileCharge = {
  perPaymentMinute: { name: 'charge:pay-min', max: 3, windowSeconds: 60, refusal: CHARGE_REFUSAL },
  perPayment: { name: 'charge:pay', max: 5, windowSeconds: 24 * HOUR, refusal: `${CHARGE_REFUSAL} for this payment` },
  perAccount: { name: 'charge:user', max: 10, windowSeconds: HOUR, refusal: CHARGE_REFUSAL },
  /** Prompts to a number from accounts it does not belong to (decision 0116): no phone is bombed from many accounts. */
  perPhone: { name: 'charge:phone', max: 10, windowSeconds: HOUR, refusal: `${CHARGE_REFUSAL} to this phone` },
  perIp: { name: 'charge:ip', max: 3000, windowSeconds: HOUR, refusal: `${CHARGE_REFUSAL} from your network` },
} satisfies Record<string, Limit>;

/**
 * Download links last an hour and the app re-mints one only when it has lapsed (or was refused by storage), so a
 * flaky connection costs a few a day; the app waits out Retry-After rather than failing the download.
 */
const LINK_REFUSAL = 'Too many download links requested';
export const downloadLinks = {
  perAccount: { name: 'link:user', max: 300, windowSeconds: HOUR, refusal: LINK_REFUSAL },
  /** A flood guard only: hundreds of subscribers downloading behind one carrier address mint thousands an hour. */
  perIp: { name: 'link:ip', max: 20_000, windowSeconds: HOUR, refusal: `${LINK_REFUSAL} from your network` },
} satisfies Record<string, Limit>;

/**
 * Reads of a pending payment that ask DPO (verify, the result pages, DPO's push), decision 0115: at most one
 * verifyToken per payment every few seconds, whoever asks, and a ceiling per account; in between, the stored state
 * is the answer. The app polls every 5 seconds for half a minute after a charge, so a payer never meets either.
 */
const VERIFY_REFUSAL = 'The payment was checked a moment ago';
export const dpoReads = {
  perPayment: { name: 'dpo-read:pay', max: 1, windowSeconds: 3, refusal: VERIFY_REFUSAL },
  perAccount: { name: 'dpo-read:user', max: 120, windowSeconds: HOUR, refusal: VERIFY_REFUSAL },
} satisfies Record<string, Limit>;

/**
 * Account recovery codes (decisions 0148, 0198). Per identifier typed and per address they answer loudly (429), the
 * same for accounts that exist and ones that do not, over a short window: a stranger can make the owner wait minutes,
 * never an hour, and while the stranger asks the owner's phone keeps getting working codes. Per account, codes cool
 * down (auth/recovery-codes.ts) rather than stop: nothing new is sent for a while, and the answer still tells nothing.
 */
const RECOVERY_REFUSAL = 'Too many codes asked for';
export const recovery = {
  perIdentifier: {
    name: 'recover:id',
    max: 10,
    windowSeconds: 600,
    refusal: `${RECOVERY_REFUSAL} for this account`,
  },
  /** A flood guard only: a carrier address carries thousands of subscribers, a few of whom forget a password. */
  perIp: { name: 'recover:ip', max: 1000, windowSeconds: HOUR, refusal: `${RECOVERY_REFUSAL} from your network` },
} satisfies Record<string, Limit>;

/**
 * Codes to a number (decisions 0158, 0197): a change asked for by a signed-in person who typed the password, or the
 * confirm step, so the limits answer loudly, and before anything is said about the number (taken or free). Per
 * account, and per number so several accounts cannot flood one stranger's phone.
 */
const PHONE_CHANGE_REFUSAL = 'Too many codes asked for';
export const phoneChange = {
  perAccount: {
    name: 'phone-change:user',
    max: 5,
    windowSeconds: HOUR,
    refusal: `${PHONE_CHANGE_REFUSAL} for this account`,
  },
  perNumber: {
    name: 'phone-change:number',
    max: 5,
    windowSeconds: HOUR,
    refusal: `${PHONE_CHANGE_REFUSAL} for this number`,
  },
} satisfies Record<string, Limit>;

/**
 * Unlock codes asked for by USSD, per caller number (decision 0249), every attempt counted whatever its outcome: a
 * person unlocking the films a kiosk sent them asks a few in a row; a line farmed for codes or guesses stops here.
 */
const USSD_REFUSAL = 'Too many unlock codes asked for from this number';
export const ussdUnlocks = {
  perHour: { name: 'ussd-unlock:phone', max: 20, windowSeconds: HOUR, refusal: USSD_REFUSAL },
  perDay: { name: 'ussd-unlock:phone-day', max: 60, windowSeconds: 24 * HOUR, refusal: USSD_REFUSAL },
} satisfies Record<string, Limit>;

/**
 * Device check results per address (decision 0253), the one public write of the device check page: a shop checking
 * phones sends a few dozen an hour; carrier NAT puts many people behind one address, who rarely send one at all.
 */
export const deviceCheckSends: Limit = {
  name: 'device-check:ip',
  max: 120,
  windowSeconds: HOUR,
  refusal: 'Too many phone checks sent from your network',
};
