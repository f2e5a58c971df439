CREATE TABLE "proof_of_work_uses" (
	"challenge_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_budget_counts" (
	"purpose" text NOT NULL,
	"period" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sms_budget_counts_purpose_period_starts_at_pk" PRIMARY KEY("purpose","period","starts_at")
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "best_delivered_share" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "copies_sent" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "link_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "login_ip_failures" ADD COLUMN "budget" text DEFAULT 'sign-in' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "sms_budget" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "proof_of_work_uses_expiry" ON "proof_of_work_uses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_expiring" ON "mail_outbox" USING btree ("expires_at") WHERE "mail_outbox"."expires_at" is not null;--> statement-breakpoint
-- Hand-written (b-limits, decision 0194): rows written before budgets and address keys (IPv6 by /64) hold at most
-- 15 minutes of failures under the old keys; they are dropped rather than re-keyed.
DELETE FROM "login_ip_failures";
--> statement-breakpoint
-- Hand-written (decision 0202): codes kept whole by earlier releases are masked once, here. Code mail queued before
-- this release has no expires_at, so nothing else would mask it; codes last ten minutes, so any recovery mail older
-- than that is masked, and any younger one is given its expiry.
UPDATE "mail_outbox" SET "body" = regexp_replace("body", '\y[0-9]{6}\y', '••••••', 'g')
  WHERE "kind" = 'password_reset' AND "created_at" < now() - interval '10 minutes';
--> statement-breakpoint
UPDATE "mail_outbox" SET "expires_at" = "created_at" + interval '10 minutes'
  WHERE "kind" = 'password_reset' AND "created_at" >= now() - interval '10 minutes';
--> statement-breakpoint
-- Code texts no longer queued or sending (new ones are masked as they leave `sending`).
UPDATE "sms_outbox" SET "body" = regexp_replace("body", '\y[0-9]{6}\y', '••••••', 'g')
  WHERE "purpose" IN ('password_reset', 'phone_change_code') AND "status" NOT IN ('queued', 'sending');
--> statement-breakpoint
-- Hand-written (decision 0191): a download under way keeps the share of its file it had already received as its
-- progress mark, so its next bytes are not counted as progress twice. copies_sent starts at 0 for every row.
UPDATE "downloads" SET "best_delivered_share" = "delivered_bytes"::double precision / "total_bytes" WHERE "total_bytes" > 0;
--> statement-breakpoint
-- Hand-written backfill (decision 0197). Existing phones count as proven only where the record shows the person had
-- the SIM: a completed (or admin-activated) mobile-money payment charged to the account's own number, or the number
-- was set through the phone-change flow (a code sent to it was used). Everyone else confirms from the profile; until
-- then recovery by phone sends nothing and points to email or support. Emails stay unproven (recovery by email is
-- unchanged).
UPDATE "users" AS u SET "phone_verified_at" = p."first_paid_at"
FROM (
  SELECT "user_id", "phone", min(coalesce("completed_at", "reviewed_at", "updated_at")) AS "first_paid_at"
  FROM "payments"
  WHERE ("status" = 'completed' OR "review_resolution" = 'activated') AND "phone" IS NOT NULL AND "user_id" IS NOT NULL
  GROUP BY "user_id", "phone"
) AS p
WHERE p."user_id" = u."id" AND p."phone" = u."phone" AND u."phone_verified_at" IS NULL;--> statement-breakpoint
UPDATE "users" AS u SET "phone_verified_at" = c."moved_at"
FROM (
  SELECT "user_id", "new_phone", max("used_at") AS "moved_at"
  FROM "phone_change_codes"
  WHERE "used_at" IS NOT NULL
  GROUP BY "user_id", "new_phone"
) AS c
WHERE c."user_id" = u."id" AND c."new_phone" = u."phone" AND u."phone_verified_at" IS NULL;
--> statement-breakpoint
-- Hand-written (decision 0213): before this release only the phone's own /complete completed a download, so every
-- completed download was confirmed by its phone.
UPDATE "downloads" SET "confirmed_at" = coalesce("completed_at", "updated_at") WHERE "status" = 'completed';
