CREATE TABLE "login_ip_failures" (
	"ip" text NOT NULL,
	"account_key" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_ip_failures_ip_account_key_pk" PRIMARY KEY("ip","account_key")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_throttle" ALTER COLUMN "last_failure_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_throttle" ADD COLUMN "pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_throttle" ADD COLUMN "pending_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "login_ip_failures_last" ON "login_ip_failures" USING btree ("last_failure_at");--> statement-breakpoint
CREATE INDEX "rate_limit_counters_expiry" ON "rate_limit_counters" USING btree ("expires_at");--> statement-breakpoint
-- The old per-IP block counters (ADR 0004) are replaced by login_ip_failures (ADR 0060).
DELETE FROM "auth_throttle" WHERE "key" LIKE 'login:ip:%';