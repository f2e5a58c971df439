import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, ne } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { generatePassword, hashPassword } from './passwords.ts';

export const GENERATED_ADMIN_EMAIL = 'admin@filamu.local';
const CREDENTIALS_FILE = 'admin-credentials.txt';

/**
 * The one protected admin. With ADMIN_EMAIL/ADMIN_PASSWORD it is created or brought in line at
 * every start; without them it is generated once, printed, and kept in DATA_DIR for later.
 */
export async function ensureProtectedAdmin(db: Db, config: Config, logger: Logger, now: Date): Promise<void> {
  if (config.admin) {
    const { email, password, name } = config.admin;
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ isProtected: false }).where(ne(users.email, email));
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (existing) {
        await tx
          .update(users)
          .set({ isAdmin: true, isProtected: true, passwordHash, updatedAt: now })
          .where(eq(users.id, existing.id));
      } else {
        await tx.insert(users).values({
          email,
          fullName: name,
          passwordHash,
          isAdmin: true,
          isProtected: true,
          createdAt: now,
          updatedAt: now,
        });
      }
    });
    logger.info({ email }, 'protected admin ready (from ADMIN_EMAIL)');
    return;
  }

  const [existing] = await db.select({ email: users.email }).from(users).where(eq(users.isProtected, true));
  const file = join(config.dataDir, CREDENTIALS_FILE);
  if (existing) {
    logger.info(
      { email: existing.email },
      `protected admin ready (credentials were printed at first start and saved in ${file})`,
    );
    return;
  }
  const password = generatePassword(20);
  await db.insert(users).values({
    email: GENERATED_ADMIN_EMAIL,
    fullName: config.adminName,
    passwordHash: await hashPassword(password),
    isAdmin: true,
    isProtected: true,
    createdAt: now,
    updatedAt: now,
  });
  await writeFile(file, `email: ${GENERATED_ADMIN_EMAIL}\npassword: ${password}\n`, { mode: 0o600 });
  // Printed straight to the terminal, never through the logger, so it cannot end up in log storage.
  process.stdout.write(
    `\n  Admin account created (shown once; also saved in ${file}):\n    email:    ${GENERATED_ADMIN_EMAIL}\n    password: ${password}\n\n`,
  );
}
