CREATE TABLE "film_manifests" (
	"object_key" text PRIMARY KEY NOT NULL,
	"movie_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"hashes" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "film_manifests" ADD CONSTRAINT "film_manifests_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;