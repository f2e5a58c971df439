CREATE TABLE "watch_positions" (
	"user_id" uuid NOT NULL,
	"movie_id" uuid NOT NULL,
	"position_seconds" double precision NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "watch_positions_user_id_movie_id_pk" PRIMARY KEY("user_id","movie_id"),
	CONSTRAINT "watch_positions_bounds" CHECK ("watch_positions"."position_seconds" >= 0 and "watch_positions"."position_seconds" <= "watch_positions"."duration_seconds")
);
--> statement-breakpoint
ALTER TABLE "watch_positions" ADD CONSTRAINT "watch_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_positions" ADD CONSTRAINT "watch_positions_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_positions_user_recent" ON "watch_positions" USING btree ("user_id","updated_at");