CREATE TABLE "support_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"admin_id" uuid,
	"action" text NOT NULL,
	"note" text,
	"sms" text NOT NULL,
	"sms_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_actions_note_length" CHECK (char_length("support_actions"."note") <= 280)
);
--> statement-breakpoint
ALTER TABLE "support_actions" ADD CONSTRAINT "support_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_actions" ADD CONSTRAINT "support_actions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_actions" ADD CONSTRAINT "support_actions_sms_id_sms_outbox_id_fk" FOREIGN KEY ("sms_id") REFERENCES "public"."sms_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_actions_user_recent" ON "support_actions" USING btree ("user_id","created_at" DESC NULLS LAST);