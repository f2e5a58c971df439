CREATE TABLE "movie_subtitles" (
	"movie_id" uuid NOT NULL,
	"language" text NOT NULL,
	"label" text NOT NULL,
	"vtt" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "movie_subtitles_movie_id_language_pk" PRIMARY KEY("movie_id","language")
);
--> statement-breakpoint
ALTER TABLE "movie_subtitles" ADD CONSTRAINT "movie_subtitles_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Subtitles are part of the library's answers (each movie lists its languages): a change moves the catalogue version
-- like a change to movies does (docs/decisions/0065-cached-catalogue.md).
CREATE TRIGGER "movie_subtitles_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "movie_subtitles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
