ALTER TABLE "operator_settings" ADD COLUMN "plan_warning_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "plan_sale_cutoff_hours" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "english_unlocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD CONSTRAINT "operator_settings_plan_warning_range" CHECK ("operator_settings"."plan_warning_hours" between 0 and 720);--> statement-breakpoint
ALTER TABLE "operator_settings" ADD CONSTRAINT "operator_settings_plan_cutoff_range" CHECK ("operator_settings"."plan_sale_cutoff_hours" between 0 and 168);