import { describe, expect, it } from 'vitest';
import { messageParts } from './protocol.ts';
import {
  agentCredentialsText,
  gsmSeptets,
  lastAccessDay,
  ONE_PART_SEPTETS,
  phoneChangeCodeText,
  phoneChangedNoticeText,
  receiptText,
  recoveryCodeText,
  redownloadGrantedText,
  reminderText,
  resetByEmailNoticeText,
  subscriberPasswordText,
  toGsm7,
} from './texts.ts';

const REFERENCE = 'FLM-7K3Q9';
// 23:59 Kampala on 31 December 2026, as plans are entered.
const END = new Date('2026-12-31T20:59:00.000Z');
const MIDNIGHT_END = new Date('2026-12-31T21:00:00.000Z');
/** The longest plan name a plan may have (80 characters), of the widest characters GSM-7 has. */
const LONGEST_NAME = 'Kinayuganda Mega Pack {VJ Junior} [Season ~ Special] ^Premium^ Best|Of €2026 E'.padEnd(80, '}');

describe('SMS texts', () => {
  it('the receipt, as the issue words it, in one part', () => {
    const text = receiptText({ amountUgx: 15_000, planName: 'Monthly', accessUntil: END, reference: REFERENCE });
    expect(text).toBe('Filamu: UGX 15,000 received for Monthly. Access until 31 Dec 2026, 11:59 PM. Ref FLM-7K3Q9.');
    expect(text.length).toBe(91);
    expect(messageParts(text)).toBe(1);
  });

  it('a plan ending at midnight gives its last day, not the next', () => {
    expect(lastAccessDay(MIDNIGHT_END)).toBe('31 Dec 2026');
    expect(lastAccessDay(END)).toBe('31 Dec 2026');
    expect(
      receiptText({ amountUgx: 15_000, planName: 'Monthly', accessUntil: MIDNIGHT_END, reference: REFERENCE }),
    ).toBe('Filamu: UGX 15,000 received for Monthly. Access until 31 Dec 2026. Ref FLM-7K3Q9.');
  });

  it('the longest plan name and the largest price still make one part: the name is cut', () => {
    expect(LONGEST_NAME).toHaveLength(80);
    const text = receiptText({
      amountUgx: 100_000_000,
      planName: LONGEST_NAME,
      accessUntil: END,
      reference: REFERENCE,
    });
    expect(gsmSeptets(text)).toBeLessThanOrEqual(160);
    expect(messageParts(text)).toBe(1);
    expect(text).toMatch(/^Filamu: UGX 100,000,000 received for Kinayuganda Mega Pack \{VJ Junior\}.*\.\.\.\. Access/);
    expect(text.endsWith('. Access until 31 Dec 2026, 11:59 PM. Ref FLM-7K3Q9.')).toBe(true);
  });

  it('a name with characters outside GSM-7 is made GSM-7 rather than sent as a 70-character UCS-2 part', () => {
    expect(toGsm7('Café “Premium” – 30 days 🎬')).toBe('Café "Premium" - 30 days');
    expect(toGsm7('Ōmega Plan')).toBe('Omega Plan');
    const text = receiptText({
      amountUgx: 15_000,
      planName: 'Wiiki “Two” ✨',
      accessUntil: END,
      reference: REFERENCE,
    });
    expect(text).toBe(
      'Filamu: UGX 15,000 received for Wiiki "Two". Access until 31 Dec 2026, 11:59 PM. Ref FLM-7K3Q9.',
    );
    expect(messageParts(text)).toBe(1);
  });

  it('the reminders: three days before (the date) and on the day (the time), with the renew link', () => {
    const renewUrl = 'https://filamu.example.ug/subscription';
    const before = reminderText({ kind: 'plan_ends_in_3_days', planName: 'Monthly', accessUntil: END, renewUrl });
    expect(before).toBe(
      'Filamu: your Monthly plan ends on 31 Dec 2026. Renew to keep downloading: https://filamu.example.ug/subscription',
    );
    const today = reminderText({ kind: 'plan_ends_today', planName: 'Monthly', accessUntil: END, renewUrl });
    expect(today).toBe(
      'Filamu: your Monthly plan ends today at 11:59 PM. Renew to keep downloading: https://filamu.example.ug/subscription',
    );
    const tonight = reminderText({ kind: 'plan_ends_today', planName: 'Monthly', accessUntil: MIDNIGHT_END, renewUrl });
    expect(tonight).toContain('plan ends tonight at midnight.');
    for (const kind of ['plan_ends_in_3_days', 'plan_ends_today'] as const) {
      const long = reminderText({ kind, planName: LONGEST_NAME, accessUntil: END, renewUrl });
      expect(messageParts(long)).toBe(1);
      expect(long.endsWith(renewUrl)).toBe(true);
    }
  });

  it('agent credentials name the sign-in, the email and the password', () => {
    const text = agentCredentialsText({
      email: 'agent@example.com',
      password: 'AbCdEfGhJkMnPqRs',
      loginUrl: 'https://filamu.example.ug/login',
      reset: false,
    });
    expect(text).toBe(
      'Your Filamu agent account. Sign in at https://filamu.example.ug/login (Agent login). Email: agent@example.com Password: AbCdEfGhJkMnPqRs Keep it private.',
    );
    expect(messageParts(text)).toBe(1);
  });
});

describe('support texts (decision 0214)', () => {
  it('a granted re-download and a reset password are one GSM-7 part each, the password whole', () => {
    expect(messageParts(redownloadGrantedText())).toBe(1);
    expect(gsmSeptets(redownloadGrantedText())).toBeLessThanOrEqual(ONE_PART_SEPTETS);
    // The generator's alphabet is letters and digits, all GSM-7.
    const text = subscriberPasswordText('AbCdEfGhJkMnPqRs');
    expect(text).toBe(
      'Filamu: support reset your password and signed you out. New password: AbCdEfGhJkMnPqRs Sign in with your phone number. Keep it private.',
    );
    expect(messageParts(text)).toBe(1);
  });
});

describe('phone change texts', () => {
  it('are one GSM-7 part each and show only part of the new number', () => {
    expect(gsmSeptets(phoneChangeCodeText('123456', 10))).toBeLessThanOrEqual(ONE_PART_SEPTETS);
    const notice = phoneChangedNoticeText('256752123456');
    expect(notice).toBe("Filamu: your number was changed to 0752...456. If this wasn't you, contact support.");
    expect(gsmSeptets(notice)).toBeLessThanOrEqual(ONE_PART_SEPTETS);
  });
});

/**
 * Every text in both languages (decision 0258): each is GSM-7 (never a 70-character UCS-2 part) and one part wherever
 * the English one is, with the widest values each can take.
 */
describe('every SMS in English and in Luganda', () => {
  const renewUrl = 'https://filamu.example.ug/subscription';
  const texts = (locale: 'en' | 'lg') => ({
    receipt: receiptText(
      { amountUgx: 100_000_000, planName: LONGEST_NAME, accessUntil: END, reference: REFERENCE },
      locale,
    ),
    receiptMidnight: receiptText(
      { amountUgx: 15_000, planName: 'Monthly', accessUntil: MIDNIGHT_END, reference: REFERENCE },
      locale,
    ),
    reminder3Days: reminderText(
      { kind: 'plan_ends_in_3_days', planName: LONGEST_NAME, accessUntil: END, renewUrl },
      locale,
    ),
    reminderToday: reminderText(
      { kind: 'plan_ends_today', planName: LONGEST_NAME, accessUntil: END, renewUrl },
      locale,
    ),
    reminderTonight: reminderText(
      { kind: 'plan_ends_today', planName: LONGEST_NAME, accessUntil: MIDNIGHT_END, renewUrl },
      locale,
    ),
    phoneCode: phoneChangeCodeText('123456', 10, locale),
    recoveryCode: recoveryCodeText('123456', 10, locale),
    phoneChanged: phoneChangedNoticeText('256752123456', locale),
    resetByEmail: resetByEmailNoticeText('+256 772 000 111', locale),
    redownload: redownloadGrantedText(locale),
    password: subscriberPasswordText('AbCdEfGhJkMnPqRs', locale),
  });

  it('each is GSM-7, and one part in Luganda wherever it is in English', () => {
    const english = texts('en');
    const luganda = texts('lg');
    for (const [name, text] of Object.entries(luganda)) {
      expect(gsmSeptets(text), `${name}: ${text}`).not.toBeNull();
      expect(text, name).not.toBe(english[name as keyof typeof english]);
      if (messageParts(english[name as keyof typeof english]) === 1)
        expect(messageParts(text), `${name}: ${text}`).toBe(1);
    }
  });

  it('Luganda dates come from the one formatter (CLDR lg), the values whole', () => {
    const luganda = texts('lg');
    expect(luganda.receiptMidnight).toContain('31 Des 2026');
    expect(luganda.receiptMidnight).toContain('UGX 15,000');
    expect(luganda.receiptMidnight).toContain(REFERENCE);
    expect(luganda.recoveryCode).toContain('123456');
    expect(luganda.password).toContain('AbCdEfGhJkMnPqRs');
    expect(luganda.phoneChanged).toContain('0752...456');
    expect(lastAccessDay(MIDNIGHT_END, 'lg')).toBe('31 Des 2026');
    expect(luganda.reminderToday).toContain('23:59');
  });
});
