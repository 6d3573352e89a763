-- The knowledge bank's search (decision 0065): an FTS5 index over the articles' title, text of the
-- body and tags, with the articles table as its external content (columns of the same names) and
-- kept in step by the triggers below. unicode61 with remove_diacritics 2 folds case and accents
-- (é → e, å → a; æ and ø are letters of their own, as in Danish); prefix indexes of 2 and 3
-- characters make a prefix query ("affald*" finds "Affaldssortering") cheap.
-- Should the articles' rowids ever change (a VACUUM renumbers a table without INTEGER PRIMARY KEY),
-- INSERT INTO articles_fts(articles_fts) VALUES ('rebuild') rebuilds the index from the table.
CREATE VIRTUAL TABLE articles_fts USING fts5(title, body_text, tags, content='articles', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
  INSERT INTO articles_fts(rowid, title, body_text, tags) VALUES (new.rowid, new.title, new.body_text, new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, body_text, tags) VALUES ('delete', old.rowid, old.title, old.body_text, old.tags);
END;
--> statement-breakpoint
CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, body_text, tags ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, body_text, tags) VALUES ('delete', old.rowid, old.title, old.body_text, old.tags);
  INSERT INTO articles_fts(rowid, title, body_text, tags) VALUES (new.rowid, new.title, new.body_text, new.tags);
END;
