CREATE SEQUENCE "public"."movies_short_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "sealed_key_phones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"agent_id" uuid,
	"key_id" text NOT NULL,
	"key_digits" text NOT NULL,
	"public_key" text NOT NULL,
	"device_id" text NOT NULL,
	"first_issued_at" timestamp with time zone NOT NULL,
	"last_issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sealed_key_phones_one_subject" CHECK (("sealed_key_phones"."user_id" is null) <> ("sealed_key_phones"."agent_id" is null))
);
--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "short_number" integer;--> statement-breakpoint
UPDATE "movies" SET "short_number" = "numbered"."n" FROM (SELECT "id", 999 + row_number() OVER (ORDER BY "created_at", "id") AS "n" FROM "movies") AS "numbered" WHERE "movies"."id" = "numbered"."id";--> statement-breakpoint
SELECT setval('movies_short_number_seq', greatest(999 + (SELECT count(*) FROM "movies"), 1000), (SELECT count(*) > 0 FROM "movies"));--> statement-breakpoint
ALTER TABLE "movies" ALTER COLUMN "short_number" SET DEFAULT nextval('movies_short_number_seq');--> statement-breakpoint
ALTER TABLE "movies" ALTER COLUMN "short_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sealed_key_phones" ADD CONSTRAINT "sealed_key_phones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_key_phones" ADD CONSTRAINT "sealed_key_phones_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_key_phones_user_key" ON "sealed_key_phones" USING btree ("user_id","key_id") WHERE "sealed_key_phones"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_key_phones_agent_key" ON "sealed_key_phones" USING btree ("agent_id","key_id") WHERE "sealed_key_phones"."agent_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "movies_short_number_unique" ON "movies" USING btree ("short_number");