ALTER TABLE "mail_outbox" ADD COLUMN "resent_from" uuid;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "resent_from" uuid;--> statement-breakpoint
CREATE INDEX "mail_outbox_recent" ON "mail_outbox" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_outbox_to_address" ON "mail_outbox" USING btree (lower("to_address"),"created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sms_outbox_recent" ON "sms_outbox" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sms_outbox_to_phone" ON "sms_outbox" USING btree ("to_phone","created_at" DESC NULLS LAST);