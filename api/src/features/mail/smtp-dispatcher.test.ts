import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentAs,
  createTestApp,
  freshDatabase,
  loginAdmin,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox } from '../../db/schema.ts';
import { deliverOutbox, smtpTransport } from './smtp-dispatcher.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
async function startSmtpServer(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabases)('SMTP delivery of the outbox on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
    await t.close();
  });

  it('sends each queued mail once, marks it sent and removes credentials from the outbox', async () => {
    const { db } = t.deps.database;
    await t.deps.mailer.queue(db, {
      to: 'buyer@example.com',
      subject: 'Your Filamu receipt',
      body: 'Plan: Basic\nAmount: UGX 15,000',
      kind: 'receipt',
    });
    await t.deps.mailer.queue(db, {
      to: 'agent@example.com',
      subject: 'Your Filamu agent account',
      body: 'Password: S3cretPassw0rd',
      kind: 'agent_credentials',
    });

    const transport = smtpTransport(smtp.url);
    expect(await deliverOutbox(t.deps, transport, 'Filamu <no-reply@filamu.ug>')).toBe(2);
    expect(await deliverOutbox(t.deps, transport, 'Filamu <no-reply@filamu.ug>')).toBe(0);

    expect(smtp.received.map((m) => m.to)).toEqual([['buyer@example.com'], ['agent@example.com']]);
    expect(smtp.received[0]!.from).toBe('no-reply@filamu.ug');
    expect(smtp.received[0]!.raw).toContain('Subject: Your Filamu receipt');
    expect(smtp.received[0]!.raw).toContain('UGX 15,000');
    expect(smtp.received[1]!.raw).toContain('S3cretPassw0rd');

    const rows = await db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === 'sent' && row.sentAt !== null)).toBe(true);
    const [credentials] = await db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'agent_credentials'));
    expect(credentials!.body).not.toContain('S3cretPassw0rd');
  });

  it('keeps mail queued when the server is unreachable, and gives up after five attempts', async () => {
    const { db } = t.deps.database;
    await db.delete(mailOutbox);
    await t.deps.mailer.queue(db, { to: 'later@example.com', subject: 'Receipt', body: 'hello', kind: 'receipt' });
    const unreachable = smtpTransport('smtp://127.0.0.1:1');
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await deliverOutbox(t.deps, unreachable, 'x@filamu.ug')).toBe(0);
      const [row] = await db.select().from(mailOutbox);
      expect(row!.attempts).toBe(attempt);
      expect(row!.status).toBe(attempt < 5 ? 'queued' : 'failed');
    }
  });

  it('blanks credentials it gives up on', async () => {
    const { db } = t.deps.database;
    await db.delete(mailOutbox);
    await t.deps.mailer.queue(db, {
      to: 'lost@example.com',
      subject: 'Your Filamu agent account',
      body: 'Password: NeverDelivered1',
      kind: 'agent_credentials',
    });
    const unreachable = smtpTransport('smtp://127.0.0.1:1');
    for (let attempt = 1; attempt <= 5; attempt++) await deliverOutbox(t.deps, unreachable, 'x@filamu.ug');
    const [row] = await db.select().from(mailOutbox);
    expect(row!.status).toBe('failed');
    expect(row!.body).not.toContain('NeverDelivered1');
  });
});

describe.each(testDatabases)('codes mailed through SMTP on %s', (kind) => {
  it('are masked in the outbox once delivered, and once given up on (decision 0202)', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    try {
      const { db } = t.deps.database;
      const code = (to: string, digits: string) =>
        t.deps.mailer.queue(db, {
          to,
          subject: 'Your Filamu code',
          body: `Your Filamu code is ${digits}. It works for 10 minutes.`,
          kind: 'password_reset',
          expiresAt: new Date(t.clock.now().getTime() + 600_000),
        });
      await code('found@example.com', '246810');
      expect(await deliverOutbox(t.deps, smtpTransport(smtp.url), 'x@filamu.ug')).toBe(1);
      expect(smtp.received[0]!.raw).toContain('246810');
      await code('lost@example.com', '135791');
      const unreachable = smtpTransport('smtp://127.0.0.1:1');
      for (let attempt = 1; attempt <= 5; attempt++) await deliverOutbox(t.deps, unreachable, 'x@filamu.ug');

      const rows = await db.select().from(mailOutbox).orderBy(mailOutbox.createdAt);
      expect(rows.map((row) => [row.status, row.body])).toEqual([
        ['sent', 'Your Filamu code is ••••••. It works for 10 minutes.'],
        ['failed', 'Your Filamu code is ••••••. It works for 10 minutes.'],
      ]);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});

describe.each(testDatabases)('agent credentials in the outbox on %s', (kind) => {
  it('with SMTP: are mailed with the password, which the outbox drops once delivered', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    try {
      const { body, password } = await createAgentAs(t, await loginAdmin(t), { send_credentials_via: 'email' });
      expect(await deliverOutbox(t.deps, smtpTransport(smtp.url), 'x@filamu.ug')).toBe(1);
      expect(smtp.received[0]!.to).toEqual([body.email]);
      expect(smtp.received[0]!.raw).toContain(password);
      const rows = await t.deps.database.db.select().from(mailOutbox);
      expect(rows.map((row) => row.body.includes(password))).toEqual([false]);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('without SMTP: are never stored with the password, and earlier ones are cleared at start', async () => {
    const database = await freshDatabase(kind);
    const first = await createTestApp(kind, { database, keepDatabaseOpen: true });
    const { password } = await createAgentAs(first, await loginAdmin(first), { send_credentials_via: 'email' });
    const [queued] = await database.db.select().from(mailOutbox);
    expect(queued!.status).toBe('queued');
    expect(queued!.body).not.toContain(password);
    expect(queued!.body).toContain('your administrator will give it to you');
    await first.close();

    // A row an earlier release queued with the password in clear.
    await database.db.insert(mailOutbox).values({
      toAddress: 'old@example.com',
      subject: 'x',
      body: 'Password: OldClearText9',
      kind: 'agent_credentials',
    });
    await database.db
      .insert(mailOutbox)
      .values({ toAddress: 'buyer@example.com', subject: 'Receipt', body: 'UGX 15,000', kind: 'receipt' });
    const second = await createTestApp(kind, { database });
    const bodies = (await database.db.select().from(mailOutbox)).map((row) => row.body);
    expect(bodies.some((body) => body.includes('OldClearText9'))).toBe(false);
    expect(bodies).toContain('UGX 15,000');
    await second.close();
  });
});
