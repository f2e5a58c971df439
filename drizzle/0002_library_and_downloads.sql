-- Trigram indexes make case-insensitive substring search (ILIKE '%…%') on titles and descriptions fast.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"agent_id" uuid,
	"movie_id" uuid NOT NULL,
	"status" text DEFAULT 'starting' NOT NULL,
	"downloaded_bytes" bigint DEFAULT 0 NOT NULL,
	"total_bytes" bigint NOT NULL,
	"resumed_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "downloads_one_subject" CHECK (("downloads"."user_id" is null) <> ("downloads"."agent_id" is null)),
	CONSTRAINT "downloads_bytes_in_range" CHECK ("downloads"."downloaded_bytes" >= 0 and "downloads"."downloaded_bytes" <= "downloads"."total_bytes")
);
--> statement-breakpoint
CREATE TABLE "movie_plans" (
	"movie_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	CONSTRAINT "movie_plans_movie_id_plan_id_pk" PRIMARY KEY("movie_id","plan_id")
);
--> statement-breakpoint
CREATE TABLE "movies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"category" text NOT NULL,
	"vj" text DEFAULT 'N/A' NOT NULL,
	"s3_key" text NOT NULL,
	"thumbnail_key" text,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "movies_category_known" CHECK ("movies"."category" in ('Kinayuganda', 'English')),
	CONSTRAINT "movies_size_positive" CHECK ("movies"."size_bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_plans" ADD CONSTRAINT "movie_plans_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_plans" ADD CONSTRAINT "movie_plans_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movies" ADD CONSTRAINT "movies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_user_movie_unique" ON "downloads" USING btree ("user_id","movie_id");--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_agent_movie_unique" ON "downloads" USING btree ("agent_id","movie_id");--> statement-breakpoint
CREATE INDEX "downloads_active_by_activity" ON "downloads" USING btree ("last_activity_at") WHERE "downloads"."status" in ('starting', 'downloading');--> statement-breakpoint
CREATE INDEX "downloads_completed_by_movie" ON "downloads" USING btree ("movie_id") WHERE "downloads"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "downloads_completed_at" ON "downloads" USING btree ("completed_at") WHERE "downloads"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "movie_plans_plan" ON "movie_plans" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "movies_s3_key_unique" ON "movies" USING btree ("s3_key");--> statement-breakpoint
CREATE INDEX "movies_live_by_category" ON "movies" USING btree ("category","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "movies"."is_active" and "movies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "movies_title_trgm" ON "movies" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "movies_description_trgm" ON "movies" USING gin ("description" gin_trgm_ops);