-- The knowledge bank's search moved to article_search_grams (migration 0029, decision 0085), which
-- the articles service writes with each article and which works alike on SQLite and PostgreSQL:
-- FTS5's index of migration 0021 and its triggers go. The grams of the articles already stored are
-- written by the articles module's job (server/features/articles/index.ts), not here: the folding
-- is the shared code's (shared/domain/search).
DROP TRIGGER IF EXISTS articles_fts_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS articles_fts_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS articles_fts_update;
--> statement-breakpoint
DROP TABLE IF EXISTS articles_fts;
