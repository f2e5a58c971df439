ALTER TABLE "downloads" ADD COLUMN "delivered_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "delivered_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "links_since_progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_delivered_in_range" CHECK ("downloads"."delivered_bytes" >= 0 and "downloads"."delivered_bytes" <= "downloads"."total_bytes");--> statement-breakpoint
-- Downloads begun before the server counted delivered bytes keep what their client reported as delivered, once
-- (otherwise a download resumed from its offset could never complete); every byte from now on is counted.
UPDATE "downloads" SET "delivered_ranges" = jsonb_build_array(jsonb_build_array(0, "downloaded_bytes")), "delivered_bytes" = "downloaded_bytes" WHERE "downloaded_bytes" > 0;
