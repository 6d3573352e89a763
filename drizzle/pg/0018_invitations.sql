CREATE TABLE "invitation_sends" (
	"company_id" text NOT NULL,
	"user_id" text NOT NULL,
	"round" integer NOT NULL,
	"queued_at" text NOT NULL,
	"queued_by_name" text,
	"sent_at" text,
	"mail_id" text,
	"skipped" text,
	CONSTRAINT "invitation_sends_company_id_user_id_round_pk" PRIMARY KEY("company_id","user_id","round")
);
--> statement-breakpoint
CREATE TABLE "invitation_settings" (
	"company_id" text PRIMARY KEY NOT NULL,
	"reminders_on" boolean DEFAULT true NOT NULL,
	"remind_after_days" integer DEFAULT 7 NOT NULL,
	"max_reminders" integer DEFAULT 2 NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_bounces" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"mail_id" text,
	"bounced_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invitation_sends" ADD CONSTRAINT "invitation_sends_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_settings" ADD CONSTRAINT "invitation_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitation_sends_queued" ON "invitation_sends" USING btree ("sent_at","queued_at");--> statement-breakpoint
CREATE INDEX "invitation_sends_company" ON "invitation_sends" USING btree ("company_id","sent_at");--> statement-breakpoint
CREATE INDEX "mail_bounces_email" ON "mail_bounces" USING btree ("email");