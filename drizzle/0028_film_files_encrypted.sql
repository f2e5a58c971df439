ALTER TABLE "movie_renditions" ADD COLUMN "file_nonce" text;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "original_file_key" text;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "original_file_nonce" text;--> statement-breakpoint
CREATE UNIQUE INDEX "movies_original_file_key_unique" ON "movies" USING btree ("original_file_key");--> statement-breakpoint
ALTER TABLE "movies" ADD CONSTRAINT "movies_original_file_whole" CHECK (("movies"."original_file_key" is null) = ("movies"."original_file_nonce" is null));