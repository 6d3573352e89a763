CREATE TABLE "household_moves" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"household_id" text NOT NULL,
	"move_date" text NOT NULL,
	"ended_agreement_id" text,
	"new_agreement_id" text,
	"settlement" json,
	"created_by_user_id" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "household_residents" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"household_id" text NOT NULL,
	"user_id" text NOT NULL,
	"full_name" text NOT NULL,
	"move_in_date" text NOT NULL,
	"move_out_date" text,
	"kind" text NOT NULL,
	"is_payer" boolean DEFAULT false NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "households" (
	"address_id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"type" text DEFAULT 'APARTMENT' NOT NULL,
	"area_centi_m2" integer,
	"allocation_milli" integer,
	"share_ore" bigint,
	"external_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "household_moves" ADD CONSTRAINT "household_moves_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_moves" ADD CONSTRAINT "household_moves_household_id_addresses_id_fk" FOREIGN KEY ("household_id") REFERENCES "public"."addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_residents" ADD CONSTRAINT "household_residents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_residents" ADD CONSTRAINT "household_residents_household_id_addresses_id_fk" FOREIGN KEY ("household_id") REFERENCES "public"."addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_residents" ADD CONSTRAINT "household_residents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "households" ADD CONSTRAINT "households_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "households" ADD CONSTRAINT "households_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "household_moves_household" ON "household_moves" USING btree ("household_id","move_date");--> statement-breakpoint
CREATE INDEX "household_residents_household" ON "household_residents" USING btree ("household_id","move_in_date");--> statement-breakpoint
CREATE INDEX "household_residents_user" ON "household_residents" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "household_residents_company" ON "household_residents" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "households_company" ON "households" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "households_company_external" ON "households" USING btree ("company_id","external_id");