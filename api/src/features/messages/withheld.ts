/**
 * Messages whose body was a secret (a recovery code, a generated password) are never resent and never shown in the
 * console (decision 0156): a second code or password in circulation is the risk, and the person or the admin has a
 * safer way (ask for a new code; reset the password). Named purposes first, then any purpose whose name says it.
 */
const WITHHELD: Record<string, string> = {
  password_reset: 'It held a password reset code. The person asks for a new code on "Forgot password?".',
  agent_credentials: "It held a password. Reset the agent's password in Agents instead.",
  subscriber_credentials: "It held a password. Reset the person's password in Subscribers instead.",
};
const SECRET_WORDS = /code|credential|otp|secret|token/;
const GENERIC = 'It held a code or a password, which is never sent twice.';

/** Null when the message may be resent and shown; otherwise why not. */
export function withheldReason(purpose: string): string | null {
  return WITHHELD[purpose] ?? (SECRET_WORDS.test(purpose) ? GENERIC : null);
}

/** What the console shows instead of a secret body. */
export const HIDDEN_BODY = '(hidden: it held a code or a password)';
