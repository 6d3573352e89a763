-- docs/decisions/0054-postgresql-schema-beside-sqlite.md: text compares and sorts in byte order, as SQLite's BINARY
-- collation does, so keyset pages, the statistics' address order and every ORDER BY on text give
-- the same rows on both engines. A database created with a language collation (e.g. en_US.UTF-8,
-- where 'a' < 'B') is refused here, before anything is stored in it. The check is on behaviour,
-- not on catalog names, so it holds for libc, ICU and builtin locale providers alike.
DO $$
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RAISE EXCEPTION 'Boligkasse needs a UTF8 database (this one is %): CREATE DATABASE boligkasse TEMPLATE template0 ENCODING ''UTF8'' LOCALE ''C''', current_setting('server_encoding');
  END IF;
  IF NOT ('B' < 'a' AND 'Z' < 'a' AND 'a b' < 'a-' AND '-' < '0' AND 'z' < 'æ') THEN
    RAISE EXCEPTION 'Boligkasse needs text in byte order (the C collation), like SQLite: CREATE DATABASE boligkasse TEMPLATE template0 ENCODING ''UTF8'' LOCALE ''C'' (or initdb --locale=C --encoding=UTF8)';
  END IF;
END
$$;
