CREATE TABLE "received_films_waiting" (
	"user_id" uuid NOT NULL,
	"movie_id" uuid NOT NULL,
	"from_agent_id" uuid,
	"waiting_since" timestamp with time zone NOT NULL,
	CONSTRAINT "received_films_waiting_user_id_movie_id_pk" PRIMARY KEY("user_id","movie_id")
);
--> statement-breakpoint
ALTER TABLE "received_films_waiting" ADD CONSTRAINT "received_films_waiting_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_films_waiting" ADD CONSTRAINT "received_films_waiting_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "received_films_waiting_by_agent" ON "received_films_waiting" USING btree ("from_agent_id") WHERE "received_films_waiting"."from_agent_id" is not null;