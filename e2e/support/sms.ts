import { apiCall } from './api.ts';
import { adminSession } from './seed.ts';

/** A text the SMS simulator took (decision 0147). */
export interface SimulatedText {
  messageId: string;
  text: string;
}

/** What the SMS simulator received for this number, newest first, read as the admin. */
export async function simulatorTexts(phone: string): Promise<SimulatedText[]> {
  const { token, deviceId } = await adminSession();
  const { messages } = await apiCall<{ messages: SimulatedText[] }>(`/admin/sms-simulator/messages?to=${phone}`, {
    token,
    deviceId,
  });
  return messages;
}

/**
 * The newest text for this number that is not among `after` (ids of texts seen before) and that `accept` takes,
 * waiting up to 20 s for the dispatcher to send it.
 */
export async function textFromSimulator(
  phone: string,
  { after = new Set<string>(), accept = () => true }: { after?: Set<string>; accept?: (text: string) => boolean } = {},
): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const fresh = (await simulatorTexts(phone)).find((m) => !after.has(m.messageId) && accept(m.text));
    if (fresh) return fresh.text;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no text reached ${phone}`);
}

/** The 6-digit code in the newest such text. */
export async function codeFromSimulator(phone: string, after?: Set<string>): Promise<string> {
  const sixDigits = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
  return sixDigits(await textFromSimulator(phone, { after, accept: (text) => sixDigits(text) !== undefined }))!;
}

/**
 * Confirms the account's phone through the app's own step (a code to it, then the code back), as a person does on
 * the profile: recovery codes go only to a confirmed number (decision 0197). `phone` as registered (07…).
 */
export async function confirmPhone(user: { token: string; deviceId: string; phone: string }): Promise<void> {
  const canonical = `256${user.phone.slice(1)}`;
  const session = { token: user.token, deviceId: user.deviceId };
  const before = new Set((await simulatorTexts(canonical)).map((m) => m.messageId));
  await apiCall('/users/profile/phone/confirm-code', { method: 'POST', ...session, body: {} });
  const code = await codeFromSimulator(canonical, before);
  await apiCall('/users/profile/phone', { method: 'POST', ...session, body: { newPhone: canonical, code } });
}
