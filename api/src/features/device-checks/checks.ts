import {
  DEVICE_CHECK_USER_AGENT_MAX,
  type DeviceCheck,
  type DeviceCheckAnswers,
  type DeviceCheckList,
  type PhoneHints,
  describePhone,
  phoneGetsHevcSmall,
  playsHere,
} from '@filamu/shared';
import { count, desc, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { deviceChecks } from '../../db/schema.ts';

/** Keeps one phone's answers with the phone read from its User-Agent and hints, and the two verdicts counted. */
export async function recordDeviceCheck(
  exec: Executor,
  input: {
    request: { hints: PhoneHints | null; answers: DeviceCheckAnswers };
    userAgent: string | undefined;
    userId: string | null;
  },
): Promise<string> {
  const userAgent = input.userAgent?.trim().slice(0, DEVICE_CHECK_USER_AGENT_MAX) || null;
  const { answers, hints } = input.request;
  const phone = describePhone(userAgent, hints);
  const [row] = await exec
    .insert(deviceChecks)
    .values({
      userId: input.userId,
      userAgent,
      ...phone,
      hevcSmall: phoneGetsHevcSmall(answers),
      h264Small: playsHere(answers.small),
      answers,
    })
    .returning({ id: deviceChecks.id });
  return row!.id;
}

/** A page of checks, newest first, with how many phones were checked in all and how many of them get HEVC Small. */
export async function listDeviceChecks(
  exec: Executor,
  query: { page: number; pageSize: number },
): Promise<DeviceCheckList> {
  const rows = await exec
    .select()
    .from(deviceChecks)
    .orderBy(desc(deviceChecks.createdAt), desc(deviceChecks.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [totals] = await exec
    .select({
      total: count(),
      hevcSmall: sql<number>`count(*) filter (where ${deviceChecks.hevcSmall})`.mapWith(Number),
    })
    .from(deviceChecks);
  return {
    checks: rows.map(toDeviceCheck),
    total: totals?.total ?? 0,
    hevcSmall: totals?.hevcSmall ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

function toDeviceCheck(row: typeof deviceChecks.$inferSelect): DeviceCheck {
  return {
    id: row.id,
    model: row.model,
    androidVersion: row.androidVersion,
    chromeVersion: row.chromeVersion,
    userAgent: row.userAgent,
    hevcSmall: row.hevcSmall,
    h264Small: row.h264Small,
    signedIn: row.userId !== null,
    answers: row.answers,
    createdAt: row.createdAt.toISOString(),
  };
}
