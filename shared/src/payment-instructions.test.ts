import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities, instructionSteps } from './payment-instructions.ts';

describe('decodeHtmlEntities', () => {
  it('decodes numeric entities with or without their semicolon, and named ones', () => {
    expect(decodeHtmlEntities('don&#39t &amp; won&#39;t &#x27;x&#x27; &quot;q&quot; a&nbsp;b')).toBe(
      `don't & won't 'x' "q" a b`,
    );
  });

  it('decodes text DPO encoded twice', () => {
    expect(decodeHtmlEntities('don&amp;#39t')).toBe("don't");
  });

  it('keeps a bare ampersand and unknown entities as written', () => {
    expect(decodeHtmlEntities('dial *165# & select; AT&T; &bogus; &#0;')).toBe(
      'dial *165# & select; AT&T; &bogus; &#0;',
    );
  });
});

describe('instructionSteps', () => {
  const mtn =
    '1. MTN will send you a request to complete the payment of UGX 25000.;' +
    '2. If you don&#39t get the prompt, dial *165# & select My Approvals.;' +
    '3. Enter your Mobile Money PIN to approve.;' +
    '4. Shortly&#8218 you will receive an SMS confirmation.';

  it("splits DPO's `;`-joined steps, decodes them and drops the leading numbers", () => {
    expect(instructionSteps(mtn)).toEqual([
      'MTN will send you a request to complete the payment of UGX 25000.',
      "If you don't get the prompt, dial *165# & select My Approvals.",
      'Enter your Mobile Money PIN to approve.',
      'Shortly, you will receive an SMS confirmation.',
    ]);
  });

  it('never shortens a step', () => {
    const long = `1. ${'x'.repeat(500)}`;
    expect(instructionSteps(long)).toEqual(['x'.repeat(500)]);
  });

  it('splits on an inline 1. 2. 3. numbering when there is no semicolon, but not on amounts', () => {
    expect(instructionSteps('1. Pay UGX 25000. 2. Dial *185# & choose Payments. 3. Enter your PIN.')).toEqual([
      'Pay UGX 25000.',
      'Dial *185# & choose Payments.',
      'Enter your PIN.',
    ]);
  });

  it('splits on line breaks and <br>, and drops other tags', () => {
    expect(instructionSteps('Approve the prompt<br/>Enter your <b>PIN</b>\nWait for the SMS')).toEqual([
      'Approve the prompt',
      'Enter your PIN',
      'Wait for the SMS',
    ]);
  });

  it('keeps a "<" that is not a tag, and drops empty steps', () => {
    expect(instructionSteps(';; Amount &lt; 5000 and &gt; 100 ;')).toEqual(['Amount < 5000 and > 100']);
  });

  it('gives nothing for no instructions', () => {
    expect(instructionSteps('')).toEqual([]);
    expect(instructionSteps(undefined)).toEqual([]);
  });
});
