CREATE TABLE "dpo_sandbox_transactions" (
	"trans_token" text PRIMARY KEY NOT NULL,
	"trans_ref" text NOT NULL,
	"company_ref" text,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"customer_phone" text,
	"customer_email" text,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"charge_phone" text,
	"charge_mno" text,
	"charged_at" timestamp with time zone,
	"charge_requests" integer DEFAULT 0 NOT NULL,
	"paid_amount" text,
	"website_verified" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dpo_sandbox_company_ref" ON "dpo_sandbox_transactions" USING btree ("company_ref");--> statement-breakpoint
CREATE INDEX "dpo_sandbox_open_created" ON "dpo_sandbox_transactions" USING btree ("created_at") WHERE "dpo_sandbox_transactions"."state" = 'open';