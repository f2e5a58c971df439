CREATE TABLE "licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"download_id" uuid NOT NULL,
	"movie_id" uuid NOT NULL,
	"user_id" uuid,
	"agent_id" uuid,
	"device_id" text NOT NULL,
	"device_key_id" text NOT NULL,
	"way" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	CONSTRAINT "licences_one_subject" CHECK (("licences"."user_id" is null) <> ("licences"."agent_id" is null)),
	CONSTRAINT "licences_way_known" CHECK ("licences"."way" in ('download', 'redownload', 'transfer')),
	CONSTRAINT "licences_revoked_with_reason" CHECK (("licences"."revoked_at" is null) = ("licences"."revoked_reason" is null) and ("licences"."revoked_reason" is null or "licences"."revoked_reason" in ('moved', 'taken_down')))
);
--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_download_id_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licences_one_live_per_download" ON "licences" USING btree ("download_id") WHERE "licences"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "licences_by_movie" ON "licences" USING btree ("movie_id");