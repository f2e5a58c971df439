CREATE TABLE "device_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"user_agent" text,
	"model" text,
	"android_version" text,
	"chrome_version" text,
	"hevc_small" boolean NOT NULL,
	"h264_small" boolean NOT NULL,
	"answers" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_checks" ADD CONSTRAINT "device_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_checks_recent" ON "device_checks" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);