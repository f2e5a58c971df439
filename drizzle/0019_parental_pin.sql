CREATE TABLE "parental_pins" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"hides" text NOT NULL,
	"salt" text NOT NULL,
	"pin_hash" text NOT NULL,
	"iterations" integer NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parental_pins_hides_known" CHECK ("parental_pins"."hides" in ('18', '13')),
	CONSTRAINT "parental_pins_attempts_in_range" CHECK ("parental_pins"."failed_attempts" >= 0 and "parental_pins"."failed_attempts" <= 100)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "parental_unlocked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "parental_pins" ADD CONSTRAINT "parental_pins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;