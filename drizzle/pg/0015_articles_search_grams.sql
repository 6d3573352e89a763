CREATE TABLE "article_search_grams" (
	"article_id" text NOT NULL,
	"company_id" text,
	"gram" text NOT NULL,
	CONSTRAINT "article_search_grams_article_id_gram_pk" PRIMARY KEY("article_id","gram")
);
--> statement-breakpoint
ALTER TABLE "article_search_grams" ADD CONSTRAINT "article_search_grams_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_search_grams_gram" ON "article_search_grams" USING btree ("gram","company_id","article_id");