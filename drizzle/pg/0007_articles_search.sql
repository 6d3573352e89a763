-- The knowledge bank's search (decision 0065), as SQLite's FTS5 index of migration 0021 behaves:
-- the words of the title (weight A), tags (B) and text of the body (C), lower case, with the
-- accents SQLite's unicode61 remove_diacritics 2 takes away removed (the Latin letters
-- U+00C0–U+024F and U+1E00–U+1EFF it folds, listed from SQLite itself; æ, ø, ð, þ, ß stay), no
-- stemming ('simple'), so a query word or prefix ("affald:*") finds the same articles on both
-- engines. lower() under ICU's root locale, as the cluster's own collation is C (byte order), whose
-- lower() folds only A–Z. The functions are IMMUTABLE so that a stored generated column can use
-- them; the search vector is that column, with the GIN index on it, so neither the search nor its
-- ranking rebuilds a vector per hit.
CREATE FUNCTION article_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(lower(value COLLATE "und-x-icu"),
    'àáâãäåāăąǎǟǻȁȃȧḁạảấầẩẫậắằẳẵặḃḅḇçćĉċčḉďḋḍḏḑḓèéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệḟĝğġģǧǵḡĥȟḣḥḧḩḫẖìíîïĩīĭįǐȉȋḭḯỉịĵǰķǩḱḳḵĺļľḷḹḻḽḿṁṃñńņňǹṅṇṉṋòóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợṕṗŕŗřȑȓṙṛṝṟśŝşšſșṡṣṥṧṩẛţťțṫṭṯṱẗùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữựṽṿŵẁẃẅẇẉẘẋẍýÿŷȳẏẙỳỵỷỹźżžẑẓẕ',
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaabbbccccccddddddeeeeeeeeeeeeeeeeeeeeeeeeefggggggghhhhhhhhiiiiiiiiiiiiiiijjkkkkklllllllmmmnnnnnnnnnoooooooooooooooooooooooooooooooooopprrrrrrrrrssssssssssssttttttttuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuvvwwwwwwwxxyyyyyyyyyyzzzzzz')
$$;
--> statement-breakpoint
CREATE FUNCTION article_search_vector(title text, body_text text, tags text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, article_fold(title)), 'A')
      || setweight(to_tsvector('simple'::regconfig, article_fold(tags)), 'B')
      || setweight(to_tsvector('simple'::regconfig, article_fold(body_text)), 'C')
$$;
--> statement-breakpoint
ALTER TABLE articles ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (article_search_vector(title, body_text, tags)) STORED;
--> statement-breakpoint
CREATE INDEX articles_search ON articles USING gin (search_vector);
