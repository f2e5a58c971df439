import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Config, ConfigError } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';

const GENERATED_ADMIN_EMAIL = 'admin@filamu.local';
const CREDENTIALS_FILE = 'admin-credentials.txt';

export const ADOPTION_REFUSED =
  'ADMIN_EMAIL: an account with this email already exists and is not an admin (someone may have registered it ' +
  'first). Making it the admin would give admin rights to whoever holds its sessions. Either set ADMIN_EMAIL to an ' +
  'address nobody has registered, or, if that account is yours, start once with ADMIN_ADOPT_EXISTING=true: it ' +
  'becomes the admin with ADMIN_PASSWORD and every session it had is signed out.';

/**
 * The one protected admin. With ADMIN_EMAIL/ADMIN_PASSWORD it is created or brought in line at
 * every start; without them it is generated once, printed, and kept in DATA_DIR for later.
 * An existing account that gains admin rights or a new password here loses every session it had, so a token
 * issued before the change never carries the new rights; an existing non-admin account is taken over only with
 * ADMIN_ADOPT_EXISTING (decision 0106). Every other admin (one an earlier ADMIN_EMAIL named, or the generated one)
 * loses its rights and its sessions at the same start, each told in the log (decision 0204).
 */
export async function ensureProtectedAdmin(db: Db, config: Config, logger: Logger, now: Date): Promise<void> {
  if (config.admin) {
    const { email, password, name, adoptExisting } = config.admin;
    const outcome = await db.transaction(async (tx) => {
      await tx.update(users).set({ isProtected: false }).where(ne(users.email, email));
      await demoteOtherAdmins(tx, email, logger, now);
      const [existing] = await tx
        .select({ id: users.id, isAdmin: users.isAdmin, isProtected: users.isProtected, hash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email));
      if (!existing) {
        await insertProtectedAdmin(tx, { email, name, password }, now);
        return 'created' as const;
      }
      if (!existing.isAdmin && !adoptExisting) throw new ConfigError([ADOPTION_REFUSED]);
      const samePassword = await verifyPassword(existing.hash, password);
      if (existing.isAdmin && existing.isProtected && samePassword) return 'unchanged' as const;
      await tx
        .update(users)
        .set({
          isAdmin: true,
          isProtected: true,
          ...(!samePassword && { passwordHash: await hashPassword(password) }),
          updatedAt: now,
        })
        .where(eq(users.id, existing.id));
      if (!existing.isAdmin || !samePassword) {
        await revokeSessions(
          tx,
          { kind: 'user', id: existing.id },
          now,
          existing.isAdmin ? 'password_changed' : 'made_admin',
        );
        return existing.isAdmin ? ('password changed' as const) : ('adopted' as const);
      }
      return 'unchanged' as const;
    });
    logger.info({ email, outcome }, 'protected admin ready (from ADMIN_EMAIL)');
    return;
  }

  const [existing] = await db.select({ email: users.email }).from(users).where(eq(users.isProtected, true));
  const file = join(config.dataDir, CREDENTIALS_FILE);
  await db.transaction((tx) => demoteOtherAdmins(tx, existing?.email ?? GENERATED_ADMIN_EMAIL, logger, now));
  if (existing) {
    logger.info(
      { email: existing.email },
      `protected admin ready (credentials were printed at first start and saved in ${file})`,
    );
    return;
  }
  const password = generatePassword(20);
  await insertProtectedAdmin(db, { email: GENERATED_ADMIN_EMAIL, name: config.adminName, password }, now);
  await writeFile(file, `email: ${GENERATED_ADMIN_EMAIL}\npassword: ${password}\n`, { mode: 0o600 });
  // Printed straight to the terminal, never through the logger, so it cannot end up in log storage.
  process.stdout.write(
    `\n  Admin account created (shown once; also saved in ${file}):\n    email:    ${GENERATED_ADMIN_EMAIL}\n    password: ${password}\n\n`,
  );
}

async function insertProtectedAdmin(
  exec: Executor,
  admin: { email: string; name: string; password: string },
  now: Date,
): Promise<void> {
  await exec.insert(users).values({
    email: admin.email,
    fullName: admin.name,
    passwordHash: await hashPassword(admin.password),
    isAdmin: true,
    isProtected: true,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Admin rights belong to the protected admin alone: any other admin account (the one an earlier ADMIN_EMAIL named,
 * or the generated admin once ADMIN_EMAIL is set) becomes an ordinary account and is signed out everywhere, so an
 * operator who rotated ADMIN_EMAIL because the old address leaked is not left with a second way in (decision 0204).
 */
async function demoteOtherAdmins(exec: Executor, adminEmail: string, logger: Logger, now: Date): Promise<void> {
  const demoted = await exec
    .update(users)
    .set({ isAdmin: false, isProtected: false, updatedAt: now })
    .where(and(eq(users.isAdmin, true), ne(users.email, adminEmail)))
    .returning({ id: users.id, email: users.email });
  for (const account of demoted) {
    await revokeSessions(exec, { kind: 'user', id: account.id }, now, 'admin_rights_removed');
    logger.warn(
      { userId: account.id, email: account.email, admin: adminEmail },
      'admin rights removed: this account is no longer the configured admin; its sessions were signed out',
    );
  }
}
