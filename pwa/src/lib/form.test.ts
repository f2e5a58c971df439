import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { fieldIssues, typedNumber } from './form.ts';

describe('fieldIssues', () => {
  const refusal = new ApiError({
    status: 400,
    code: 'validation_error',
    message: 'Invalid request',
    issues: [
      { path: 'body.email', message: 'Please enter a valid email address.' },
      { path: 'email', message: 'A second word on the email.' },
      { path: 'body.deviceId', message: 'Not a field of this form.' },
      { path: 'fullName', message: 'Full name is required.' },
    ],
  });

  it('puts each issue on the form field its path ends in, the first issue of a field winning', () => {
    expect(fieldIssues(refusal, ['fullName', 'email', 'password'])).toEqual({
      email: 'Please enter a valid email address.',
      fullName: 'Full name is required.',
    });
  });

  it('finds no field in an error that is not the server refusing fields', () => {
    expect(fieldIssues(new Error('offline'), ['email'])).toEqual({});
  });
});

describe('typedNumber', () => {
  it('reads thousands commas and leaves an empty field for the schema to call missing', () => {
    expect(typedNumber(' 1,500 ')).toBe(1500);
    expect(typedNumber('  ')).toBeUndefined();
    expect(typedNumber('twelve')).toBeNaN();
  });
});
