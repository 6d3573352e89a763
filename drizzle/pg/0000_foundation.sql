CREATE TABLE "agreement_addresses" (
	"agreement_id" text NOT NULL,
	"address_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "agreement_addresses_agreement_id_address_id_pk" PRIMARY KEY("agreement_id","address_id")
);
--> statement-breakpoint
CREATE TABLE "agreement_parts" (
	"agreement_id" text NOT NULL,
	"id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"description" text NOT NULL,
	"price_ore" bigint NOT NULL,
	"vat_rate" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "agreement_parts_agreement_id_id_pk" PRIMARY KEY("agreement_id","id")
);
--> statement-breakpoint
CREATE TABLE "agreements" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"external_seq" integer NOT NULL,
	"member_user_id" text NOT NULL,
	"payment_provider_id" text NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"price_ore" bigint NOT NULL,
	"currency" text DEFAULT 'DKK' NOT NULL,
	"payment_period" text NOT NULL,
	"start_payment_date" text NOT NULL,
	"next_regular_payment_date" text,
	"termination_date" text,
	"final_payment_required" boolean DEFAULT false NOT NULL,
	"vipps_agreement_id" text,
	"vipps_confirmation_url" text,
	"pending_since" text,
	"debt_collection_since" text,
	"created_by_user_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charge_events" (
	"id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"event" text NOT NULL,
	"amount_ore" bigint NOT NULL,
	"occurred_at" text NOT NULL,
	"success" boolean DEFAULT true NOT NULL,
	"event_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" text PRIMARY KEY NOT NULL,
	"agreement_id" text NOT NULL,
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"amount_ore" bigint NOT NULL,
	"currency" text DEFAULT 'DKK' NOT NULL,
	"description" text NOT NULL,
	"due" text NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"vipps_charge_id" text,
	"vipps_status" text,
	"captured_ore" bigint DEFAULT 0 NOT NULL,
	"refunded_ore" bigint DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"invoice_id" text,
	"failed_on" text,
	"overdue_step" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"agreement_id" text NOT NULL,
	"charge_id" text,
	"kind" text NOT NULL,
	"payload" json NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text NOT NULL,
	"last_error" text,
	"created_at" text NOT NULL,
	"sent_at" text
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"reference_id" text,
	"street" text NOT NULL,
	"number" text NOT NULL,
	"floor" text,
	"side" text,
	"zip" text NOT NULL,
	"city" text NOT NULL,
	"country" text DEFAULT 'Denmark' NOT NULL,
	"address_key" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"acronym" text NOT NULL,
	"cvr" text NOT NULL,
	"union_type" text NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"heating_water_period_start_date" text,
	"heating_water_period_end_date" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_members" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"company_id" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" text NOT NULL,
	"position" integer NOT NULL,
	"id" text NOT NULL,
	"article_number" text NOT NULL,
	"type" text NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit" text NOT NULL,
	"price_per_unit_ore" bigint NOT NULL,
	"vat_rate" integer NOT NULL,
	"vat_ore" bigint NOT NULL,
	"total_incl_vat_ore" bigint NOT NULL,
	"credited_position" integer,
	CONSTRAINT "invoice_lines_invoice_id_position_pk" PRIMARY KEY("invoice_id","position")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"agreement_id" text NOT NULL,
	"charge_id" text NOT NULL,
	"member_user_id" text NOT NULL,
	"credited_invoice_id" text,
	"refund_id" text,
	"issue_date" text NOT NULL,
	"due_date" text NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"description" text NOT NULL,
	"company_name" text NOT NULL,
	"company_cvr" text NOT NULL,
	"company_address" text,
	"consumer_name" text NOT NULL,
	"consumer_address" text,
	"consumer_phone_number" text,
	"consumer_email_address" text NOT NULL,
	"currency" text DEFAULT 'DKK' NOT NULL,
	"subtotal_ore" bigint NOT NULL,
	"vat_ore" bigint NOT NULL,
	"total_ore" bigint NOT NULL,
	"vat_rate" integer NOT NULL,
	"payment_status" text,
	"payment_type" text,
	"payment_date" text,
	"settlement" text,
	"settled_on" text,
	"settlement_note" text,
	"settled_by_user_id" text,
	"settled_by_name" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"user_id" text NOT NULL,
	"email_address" text NOT NULL,
	"full_name" text NOT NULL,
	"mail_id" text,
	"received_at" text,
	"viewed_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"sender_user_id" text,
	"anonymous" boolean DEFAULT false NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"recipient_kind" text NOT NULL,
	"recipient_user_id" text,
	"recipient_address_id" text,
	"recipient_label" text,
	"send_at" text,
	"sent_at" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"type" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"action_url" text,
	"action_text" text,
	"title_source" json,
	"message_source" json,
	"action_text_source" json,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"read_at" text
);
--> statement-breakpoint
CREATE TABLE "oidc_logins" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" text NOT NULL,
	"link_user_id" text
);
--> statement-breakpoint
CREATE TABLE "payment_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"type" text DEFAULT 'VIPPS' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_test" boolean DEFAULT true NOT NULL,
	"provider_name" text NOT NULL,
	"merchant_serial_number" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"subscription_key_sealed" text NOT NULL,
	"use_test_mode" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"vipps_webhook_id" text,
	"url" text NOT NULL,
	"events" json NOT NULL,
	"secret_sealed" text,
	"status" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"body_hash" text NOT NULL,
	"event_type" text NOT NULL,
	"agreement_id" text NOT NULL,
	"charge_id" text,
	"payload" text NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text NOT NULL,
	"observed_status" text,
	"last_error" text,
	"received_at" text NOT NULL,
	"processed_at" text
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"headers" text NOT NULL,
	"body" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text NOT NULL,
	"last_error" text,
	"created_at" text NOT NULL,
	"sent_at" text
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"timestamp" text NOT NULL,
	"level" text NOT NULL,
	"source" text NOT NULL,
	"message" text NOT NULL,
	"context" text,
	"user_id" text
);
--> statement-breakpoint
CREATE TABLE "charge_statistics" (
	"company_id" text NOT NULL,
	"day" text NOT NULL,
	"agreement_id" text NOT NULL,
	"consumer_address" text NOT NULL,
	"hot_and_cold_water" bigint DEFAULT 0 NOT NULL,
	"hot_water" bigint DEFAULT 0 NOT NULL,
	"cold_water" bigint DEFAULT 0 NOT NULL,
	"heating" bigint DEFAULT 0 NOT NULL,
	"addition" bigint DEFAULT 0 NOT NULL,
	"common_expenses" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"other" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "charge_statistics_pk" PRIMARY KEY("company_id","day","agreement_id","consumer_address")
);
--> statement-breakpoint
CREATE TABLE "charge_statistics_months" (
	"company_id" text NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"consumer_address" text NOT NULL,
	"hot_and_cold_water" bigint DEFAULT 0 NOT NULL,
	"hot_water" bigint DEFAULT 0 NOT NULL,
	"cold_water" bigint DEFAULT 0 NOT NULL,
	"heating" bigint DEFAULT 0 NOT NULL,
	"addition" bigint DEFAULT 0 NOT NULL,
	"common_expenses" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"other" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "charge_statistics_months_pk" PRIMARY KEY("company_id","year","month","consumer_address")
);
--> statement-breakpoint
CREATE TABLE "change_log" (
	"seq" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "change_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"op" text NOT NULL,
	"company_id" text,
	"user_id" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"identifier" text NOT NULL,
	"secret_hash" text,
	"lookup_hash" text,
	"verified_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_confirmations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"auth_method_id" text,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" text NOT NULL,
	"last_used_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"revoked_at" text,
	"via" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"email_address" text NOT NULL,
	"mobile_number" text,
	"mobile_key" text,
	"mobile_verified_at" text,
	"language" text DEFAULT 'EN' NOT NULL,
	"system_role" text DEFAULT 'USER' NOT NULL,
	"current_company_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agreement_addresses" ADD CONSTRAINT "agreement_addresses_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_addresses" ADD CONSTRAINT "agreement_addresses_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_parts" ADD CONSTRAINT "agreement_parts_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_member_user_id_users_id_fk" FOREIGN KEY ("member_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_payment_provider_id_payment_providers_id_fk" FOREIGN KEY ("payment_provider_id") REFERENCES "public"."payment_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_events" ADD CONSTRAINT "charge_events_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_outbox" ADD CONSTRAINT "provider_outbox_provider_id_payment_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."payment_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_outbox" ADD CONSTRAINT "provider_outbox_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_outbox" ADD CONSTRAINT "provider_outbox_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_address_id_addresses_id_fk" FOREIGN KEY ("recipient_address_id") REFERENCES "public"."addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_providers" ADD CONSTRAINT "payment_providers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_webhooks" ADD CONSTRAINT "provider_webhooks_provider_id_payment_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."payment_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_provider_id_payment_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."payment_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_methods" ADD CONSTRAINT "auth_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD CONSTRAINT "email_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD CONSTRAINT "email_confirmations_auth_method_id_auth_methods_id_fk" FOREIGN KEY ("auth_method_id") REFERENCES "public"."auth_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agreement_addresses_address" ON "agreement_addresses" USING btree ("address_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_company_seq" ON "agreements" USING btree ("company_id","external_seq");--> statement-breakpoint
CREATE INDEX "agreements_member" ON "agreements" USING btree ("member_user_id");--> statement-breakpoint
CREATE INDEX "agreements_status" ON "agreements" USING btree ("status");--> statement-breakpoint
CREATE INDEX "agreements_status_next" ON "agreements" USING btree ("status","next_regular_payment_date");--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_vipps_id" ON "agreements" USING btree ("vipps_agreement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charge_events_charge_key" ON "charge_events" USING btree ("charge_id","event_key");--> statement-breakpoint
CREATE INDEX "charges_agreement" ON "charges" USING btree ("agreement_id","due");--> statement-breakpoint
CREATE INDEX "charges_status" ON "charges" USING btree ("status");--> statement-breakpoint
CREATE INDEX "charges_failed_on" ON "charges" USING btree ("failed_on") WHERE failed_on IS NOT NULL AND status IN ('FAILED', 'DECLINED');--> statement-breakpoint
CREATE UNIQUE INDEX "charges_regular_agreement_due" ON "charges" USING btree ("agreement_id","due") WHERE kind = 'REGULAR';--> statement-breakpoint
CREATE UNIQUE INDEX "charges_final_agreement" ON "charges" USING btree ("agreement_id") WHERE kind = 'FINAL';--> statement-breakpoint
CREATE UNIQUE INDEX "charges_vipps_id" ON "charges" USING btree ("vipps_charge_id");--> statement-breakpoint
CREATE INDEX "provider_outbox_status_next" ON "provider_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "provider_outbox_agreement" ON "provider_outbox" USING btree ("agreement_id");--> statement-breakpoint
CREATE INDEX "addresses_company" ON "addresses" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_company_key" ON "addresses" USING btree ("company_id","address_key");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_cvr_unique" ON "companies" USING btree ("cvr");--> statement-breakpoint
CREATE UNIQUE INDEX "company_members_company_user" ON "company_members" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "company_members_user" ON "company_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_number" ON "invoices" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "invoices_company_issue" ON "invoices" USING btree ("company_id","issue_date","number","id");--> statement-breakpoint
CREATE INDEX "invoices_member" ON "invoices" USING btree ("member_user_id","issue_date","number","id");--> statement-breakpoint
CREATE INDEX "invoices_charge" ON "invoices" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "invoices_credited" ON "invoices" USING btree ("credited_invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_company_open_due" ON "invoices" USING btree ("company_id","due_date","id") WHERE kind = 'INVOICE' AND settlement IS NULL AND status IN ('CREATED', 'RESERVED', 'FAILED');--> statement-breakpoint
CREATE INDEX "message_attachments_message" ON "message_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_recipients_message_user" ON "message_recipients" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "message_recipients_user" ON "message_recipients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_recipients_pending" ON "message_recipients" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "messages_company" ON "messages" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "messages_company_created" ON "messages" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_sender" ON "messages" USING btree ("sender_user_id");--> statement-breakpoint
CREATE INDEX "messages_due" ON "messages" USING btree ("status","send_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_providers_company" ON "payment_providers" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "provider_webhooks_provider" ON "provider_webhooks" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_body" ON "webhook_events" USING btree ("provider_id","body_hash");--> statement-breakpoint
CREATE INDEX "webhook_events_status_next" ON "webhook_events" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_next" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "system_logs_timestamp" ON "system_logs" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "change_log_company_seq" ON "change_log" USING btree ("company_id","seq");--> statement-breakpoint
CREATE INDEX "change_log_user_seq" ON "change_log" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "change_log_created" ON "change_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "auth_methods_user" ON "auth_methods" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_methods_type_identifier" ON "auth_methods" USING btree ("type","identifier") WHERE type <> 'LOGIN_TOKEN' and verified_at is not null;--> statement-breakpoint
CREATE INDEX "auth_methods_identifier" ON "auth_methods" USING btree ("identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_methods_lookup" ON "auth_methods" USING btree ("lookup_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "email_confirmations_token_hash" ON "email_confirmations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_confirmations_user" ON "email_confirmations" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_hash" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email_address");--> statement-breakpoint
CREATE UNIQUE INDEX "users_mobile_key_unique" ON "users" USING btree ("mobile_key");