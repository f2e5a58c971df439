import type { AdminAgent } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { agentValues, createBody, emptyAgent, sentSummary, updateBody, validateAgent } from './agent-form.ts';

const agent: AdminAgent = {
  id: 'a1',
  full_name: 'Jane Agent',
  phone: '256701234567',
  email: 'jane@example.com',
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
  created_by_email: 'admin@filamu.local',
  films_sent: 0,
  plans_after: 0,
};

describe('agent form', () => {
  it('requires name, phone and a valid email when creating', () => {
    expect(validateAgent(emptyAgent(), false)).toEqual({
      full_name: 'Full name is required.',
      phone: 'Phone number is required.',
      email: 'Email is required.',
    });
    expect(validateAgent({ ...emptyAgent(), full_name: 'A', phone: '12', email: 'not-an-email' }, false)).toEqual({
      phone: 'Please enter a valid Uganda phone number, like 0772 123 456 or 0752 123 456',
      email: 'Please enter a valid email address.',
    });
    expect(validateAgent({ ...emptyAgent(), full_name: 'A', phone: '0701234567', email: 'a@b.co' }, false)).toEqual({});
  });

  it('does not check the locked email when editing', () => {
    expect(validateAgent({ ...agentValues(agent), email: '' }, true)).toEqual({});
  });

  it('sends the whole form when creating, trimmed, with the chosen channel', () => {
    expect(
      createBody({ full_name: ' Jo ', phone: ' 0701234567', email: 'jo@x.co ', send_credentials_via: 'none' }),
    ).toEqual({ full_name: 'Jo', phone: '0701234567', email: 'jo@x.co', send_credentials_via: 'none' });
    expect(emptyAgent().send_credentials_via).toBe('both');
  });

  it('sends only what changed when editing, never the email', () => {
    const values = agentValues(agent);
    expect(updateBody(agent, values)).toBeNull();
    expect(updateBody(agent, { ...values, full_name: 'Jane B ' })).toEqual({ full_name: 'Jane B' });
    expect(updateBody(agent, { ...values, phone: '0709999999', email: 'x@y.z' })).toEqual({ phone: '0709999999' });
  });

  it('says what went out: SMS and email first, the WhatsApp link only when nothing else did', () => {
    const link = 'https://wa.me/256701234567?text=x';
    const sent = (email: boolean, sms: boolean, whatsappLink: string | null) =>
      sentSummary({ credentialsEmailQueued: email, credentialsSmsQueued: sms, whatsappLink });
    expect(sent(true, true, link)).toBe('Credentials sent via SMS and email.');
    expect(sent(false, true, link)).toBe('Credentials sent via SMS.');
    expect(sent(true, false, link)).toBe('Credentials sent via email.');
    expect(sent(false, false, link)).toBe('WhatsApp link generated.');
    expect(sent(false, false, null)).toBeUndefined();
  });
});
