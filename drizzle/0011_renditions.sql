CREATE TABLE "movie_renditions" (
	"movie_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"eta_seconds" integer,
	"storage_key" text,
	"size_bytes" bigint,
	"width" integer,
	"height" integer,
	"bits_per_second" integer,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	CONSTRAINT "movie_renditions_movie_id_kind_pk" PRIMARY KEY("movie_id","kind"),
	CONSTRAINT "movie_renditions_ready_has_file" CHECK ("movie_renditions"."state" <> 'ready' or ("movie_renditions"."storage_key" is not null and "movie_renditions"."size_bytes" > 0))
);
--> statement-breakpoint
CREATE TABLE "operator_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"data_price_per_gb_ugx" integer DEFAULT 6000 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_settings_one_row" CHECK ("operator_settings"."id" = 1),
	CONSTRAINT "operator_settings_price_range" CHECK ("operator_settings"."data_price_per_gb_ugx" between 100 and 100000)
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "size" text DEFAULT 'original' NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "fetched_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "duration_seconds" double precision;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "poster_variants" jsonb;--> statement-breakpoint
ALTER TABLE "movie_renditions" ADD CONSTRAINT "movie_renditions_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "movie_renditions_storage_key_unique" ON "movie_renditions" USING btree ("storage_key");--> statement-breakpoint
INSERT INTO "operator_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "downloads" SET "fetched_bytes" = "delivered_bytes";
--> statement-breakpoint
-- The sizes a movie is offered in are part of the cached catalogue: a rendition becoming ready (or no longer ready)
-- bumps its version like a change to movies does; progress updates while encoding do not.
CREATE FUNCTION "bump_catalog_version_when_ready"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'INSERT' AND NEW."state" = 'ready')
    OR (TG_OP = 'DELETE' AND OLD."state" = 'ready')
    OR (TG_OP = 'UPDATE' AND (OLD."state" = 'ready' OR NEW."state" = 'ready')
        AND (OLD."state" IS DISTINCT FROM NEW."state" OR OLD."storage_key" IS DISTINCT FROM NEW."storage_key")) THEN
    UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "movie_renditions_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "movie_renditions"
  FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version_when_ready"();
