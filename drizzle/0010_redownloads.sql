CREATE TABLE "redownloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"download_id" uuid NOT NULL,
	"month" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "redownload_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "extra_redownloads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "redownloads" ADD CONSTRAINT "redownloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redownloads" ADD CONSTRAINT "redownloads_download_id_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redownloads_user_month" ON "redownloads" USING btree ("user_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "redownloads_one_open_per_download" ON "redownloads" USING btree ("download_id") WHERE "redownloads"."completed_at" is null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_extra_redownloads_in_range" CHECK ("users"."extra_redownloads" >= 0 and "users"."extra_redownloads" <= 100);