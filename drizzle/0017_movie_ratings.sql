-- Movies saved before ratings existed get 18+ (hidden from children until an admin looks) and are marked
-- unconfirmed so the console asks for their real rating (decision 0166); every later save sets the rating itself.
ALTER TABLE "movies" ADD COLUMN "rating" text DEFAULT '18' NOT NULL;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "rating_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "movies" ALTER COLUMN "rating_confirmed" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "certificate_number" text;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "certificate_date" date;--> statement-breakpoint
ALTER TABLE "movies" ADD CONSTRAINT "movies_rating_known" CHECK ("movies"."rating" in ('all', 'pg', '13', '18'));
