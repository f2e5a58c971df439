CREATE TABLE "one_time_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"destination" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "one_time_codes_purpose" CHECK ("one_time_codes"."purpose" in ('recovery', 'phone'))
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_time_codes_open" ON "one_time_codes" USING btree ("user_id","purpose") WHERE "one_time_codes"."used_at" is null;--> statement-breakpoint
-- Hand-written (decision 0227): one table for both kinds of code. Codes still open keep working across the deploy
-- (their digests are unchanged), and the last hour's codes come too, so the recovery cool-down still counts them.
INSERT INTO "one_time_codes" ("id", "user_id", "purpose", "destination", "code_hash", "attempts", "expires_at", "used_at", "created_at")
  SELECT "id", "user_id", 'recovery', "channel", "code_hash", "attempts", "expires_at", "used_at", "created_at"
  FROM "password_reset_codes"
  WHERE ("used_at" IS NULL AND "expires_at" > now()) OR "created_at" > now() - interval '1 hour';
--> statement-breakpoint
INSERT INTO "one_time_codes" ("id", "user_id", "purpose", "destination", "code_hash", "attempts", "expires_at", "used_at", "created_at")
  SELECT "id", "user_id", 'phone', "new_phone", "code_hash", "attempts", "expires_at", "used_at", "created_at"
  FROM "phone_change_codes"
  WHERE ("used_at" IS NULL AND "expires_at" > now()) OR "created_at" > now() - interval '1 hour';
--> statement-breakpoint
DROP TABLE "password_reset_codes" CASCADE;--> statement-breakpoint
DROP TABLE "phone_change_codes" CASCADE;
