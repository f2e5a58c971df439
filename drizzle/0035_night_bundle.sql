CREATE TABLE "night_window_pushes" (
	"user_id" uuid NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "night_window_pushes_user_id_opens_at_pk" PRIMARY KEY("user_id","opens_at")
);
--> statement-breakpoint
CREATE TABLE "tonight_queue_items" (
	"user_id" uuid NOT NULL,
	"movie_id" uuid NOT NULL,
	"size" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tonight_queue_items_user_id_movie_id_pk" PRIMARY KEY("user_id","movie_id")
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "night_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "night_price_per_gb_ugx" integer DEFAULT 2000 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "night_windows" jsonb;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "night_before" jsonb;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD COLUMN "night_changes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "night_window_pushes" ADD CONSTRAINT "night_window_pushes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tonight_queue_items" ADD CONSTRAINT "tonight_queue_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tonight_queue_items" ADD CONSTRAINT "tonight_queue_items_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_night_bytes_in_range" CHECK ("downloads"."night_bytes" >= 0 and "downloads"."night_bytes" <= "downloads"."fetched_bytes");--> statement-breakpoint
ALTER TABLE "operator_settings" ADD CONSTRAINT "operator_settings_night_price_range" CHECK ("operator_settings"."night_price_per_gb_ugx" between 100 and 100000);