-- The knowledge bank's search moved to article_search_grams (migration 0015, decision 0085), which
-- the articles service writes with each article and which works alike on SQLite and PostgreSQL:
-- the search vector of migration 0007, its GIN index and its functions go. The grams of the
-- articles already stored are written by the articles module's job (server/features/articles/index.ts),
-- not here: the folding is the shared code's (shared/domain/search).
DROP INDEX IF EXISTS articles_search;
--> statement-breakpoint
ALTER TABLE articles DROP COLUMN IF EXISTS search_vector;
--> statement-breakpoint
DROP FUNCTION IF EXISTS article_search_vector(text, text, text);
--> statement-breakpoint
DROP FUNCTION IF EXISTS article_fold(text);
