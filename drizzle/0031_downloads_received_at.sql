ALTER TABLE "downloads" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "downloads_received_at" ON "downloads" USING btree ("received_at") WHERE "downloads"."received_at" is not null;--> statement-breakpoint
UPDATE "downloads" SET "received_at" = "licences"."issued_at" FROM "licences" WHERE "licences"."download_id" = "downloads"."id" AND "licences"."way" = 'transfer' AND "downloads"."received_at" IS NULL;
