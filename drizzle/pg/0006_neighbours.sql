CREATE TABLE "forum_follows" (
	"thread_id" text NOT NULL,
	"user_id" text NOT NULL,
	"following" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "forum_follows_thread_id_user_id_pk" PRIMARY KEY("thread_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "forum_moderation_events" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"post_id" text,
	"actor_user_id" text,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"thread_id" text NOT NULL,
	"company_id" text NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"opening" integer DEFAULT 0 NOT NULL,
	"body" text NOT NULL,
	"edited_at" text,
	"deleted_at" text,
	"hidden_at" text,
	"hidden_by_name" text,
	"hidden_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"company_id" text NOT NULL,
	"reporter_user_id" text,
	"reporter_name" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" text NOT NULL,
	"resolved_at" text,
	"resolved_by_name" text
);
--> statement-breakpoint
CREATE TABLE "forum_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"title" text NOT NULL,
	"pinned" integer DEFAULT 0 NOT NULL,
	"locked_at" text,
	"locked_by_name" text,
	"hidden_at" text,
	"hidden_by_name" text,
	"hidden_reason" text,
	"reply_count" integer DEFAULT 0 NOT NULL,
	"last_activity_at" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "article_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"article_id" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"body_text" text NOT NULL,
	"tags" text DEFAULT '' NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "specialists" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"company_name" text,
	"phone" text,
	"email" text,
	"website" text,
	"address" text,
	"notes" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lending_items" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"lender_kind" text NOT NULL,
	"lender_user_id" text,
	"lender_name" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rules" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"deposit_ore" integer,
	"photo_id" text,
	"photo_content_type" text,
	"photo_size" integer,
	"archived_at" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_reminders" (
	"id" text PRIMARY KEY NOT NULL,
	"loan_id" text NOT NULL,
	"kind" text NOT NULL,
	"due_at" text NOT NULL,
	"sent_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"item_id" text NOT NULL,
	"borrower_user_id" text,
	"borrower_name" text NOT NULL,
	"lender_user_id" text,
	"from_date" text NOT NULL,
	"to_date" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"condition_out" text DEFAULT '' NOT NULL,
	"handover_condition" text,
	"condition_back" text,
	"deposit_ore" integer,
	"lender_confirmed_at" text,
	"lender_confirmed_by" text,
	"borrower_confirmed_at" text,
	"handed_over_at" text,
	"returned_at" text,
	"deposit_charge_id" text,
	"deposit_refund_id" text,
	"damage_note" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "forum_follows" ADD CONSTRAINT "forum_follows_thread_id_forum_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."forum_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_follows" ADD CONSTRAINT "forum_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_moderation_events" ADD CONSTRAINT "forum_moderation_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_moderation_events" ADD CONSTRAINT "forum_moderation_events_thread_id_forum_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."forum_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_moderation_events" ADD CONSTRAINT "forum_moderation_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_thread_id_forum_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."forum_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reports" ADD CONSTRAINT "forum_reports_post_id_forum_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."forum_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reports" ADD CONSTRAINT "forum_reports_thread_id_forum_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."forum_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reports" ADD CONSTRAINT "forum_reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reports" ADD CONSTRAINT "forum_reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_threads" ADD CONSTRAINT "forum_threads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_threads" ADD CONSTRAINT "forum_threads_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_attachments" ADD CONSTRAINT "article_attachments_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specialists" ADD CONSTRAINT "specialists_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_items" ADD CONSTRAINT "lending_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_items" ADD CONSTRAINT "lending_items_lender_user_id_users_id_fk" FOREIGN KEY ("lender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_reminders" ADD CONSTRAINT "loan_reminders_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_item_id_lending_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."lending_items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_borrower_user_id_users_id_fk" FOREIGN KEY ("borrower_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_lender_user_id_users_id_fk" FOREIGN KEY ("lender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forum_follows_user" ON "forum_follows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "forum_moderation_events_thread" ON "forum_moderation_events" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "forum_moderation_events_company" ON "forum_moderation_events" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "forum_posts_thread_created" ON "forum_posts" USING btree ("thread_id","created_at","id");--> statement-breakpoint
CREATE INDEX "forum_posts_company" ON "forum_posts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "forum_posts_author_created" ON "forum_posts" USING btree ("author_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "forum_reports_post_reporter" ON "forum_reports" USING btree ("post_id","reporter_user_id");--> statement-breakpoint
CREATE INDEX "forum_reports_company_open" ON "forum_reports" USING btree ("company_id","resolved_at","created_at");--> statement-breakpoint
CREATE INDEX "forum_reports_thread" ON "forum_reports" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "forum_threads_company_list" ON "forum_threads" USING btree ("company_id","pinned","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "article_attachments_article" ON "article_attachments" USING btree ("article_id","created_at");--> statement-breakpoint
CREATE INDEX "articles_company_created" ON "articles" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "articles_author" ON "articles" USING btree ("author_user_id");--> statement-breakpoint
CREATE INDEX "specialists_company_kind" ON "specialists" USING btree ("company_id","kind","name");--> statement-breakpoint
CREATE INDEX "lending_items_company_created" ON "lending_items" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "lending_items_lender" ON "lending_items" USING btree ("lender_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_reminders_loan_kind" ON "loan_reminders" USING btree ("loan_id","kind");--> statement-breakpoint
CREATE INDEX "loan_reminders_due" ON "loan_reminders" USING btree ("sent_at","due_at");--> statement-breakpoint
CREATE INDEX "loans_item_dates" ON "loans" USING btree ("item_id","from_date");--> statement-breakpoint
CREATE INDEX "loans_borrower" ON "loans" USING btree ("borrower_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "loans_lender" ON "loans" USING btree ("lender_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "loans_company" ON "loans" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "loans_deposit_open" ON "loans" USING btree ("deposit_refund_id","deposit_charge_id");--> statement-breakpoint
CREATE INDEX "change_log_user_company_seq" ON "change_log" USING btree ("user_id","company_id","seq");