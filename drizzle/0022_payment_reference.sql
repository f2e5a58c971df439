ALTER TABLE "payments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charge_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
-- Existing payments get a reference from their id: 5 characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ (no 0/O/1/I).
UPDATE "payments" SET "reference" = 'FLM-' || (
  SELECT string_agg(substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', get_byte(decode(md5("payments"."id"::text), 'hex'), n) % 32 + 1, 1), '' ORDER BY n)
  FROM generate_series(0, 4) AS n
);--> statement-breakpoint
-- The rare clash between two ids takes 8 characters from a second hash instead.
UPDATE "payments" p SET "reference" = 'FLM-' || (
  SELECT string_agg(substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', get_byte(decode(md5(p."id"::text || ':again'), 'hex'), n) % 32 + 1, 1), '' ORDER BY n)
  FROM generate_series(0, 7) AS n
) WHERE EXISTS (SELECT 1 FROM "payments" q WHERE q."reference" = p."reference" AND q."id" < p."id");--> statement-breakpoint
-- A payment with a phone on it had a prompt asked for before this column existed.
UPDATE "payments" SET "charge_requested_at" = "updated_at" WHERE "phone" IS NOT NULL;--> statement-breakpoint
-- Before the one-waiting-payment rule, a person may hold two waiting payments; the older ones stay visible but do not block the index.
UPDATE "payments" p SET "charge_requested_at" = NULL WHERE p."status" = 'pending' AND p."charge_requested_at" IS NOT NULL
  AND EXISTS (SELECT 1 FROM "payments" q WHERE q."user_id" = p."user_id" AND q."status" = 'pending' AND q."charge_requested_at" IS NOT NULL AND (q."created_at", q."id") > (p."created_at", p."id"));--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference_unique" ON "payments" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_waiting_per_user" ON "payments" USING btree ("user_id") WHERE "payments"."status" = 'pending' and "payments"."charge_requested_at" is not null;
