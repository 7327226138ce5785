-- SchemaMigrationsTest: one statement that outlasts kopek.db.socket-timeout (1 s in that test), as an index built
-- on a big table does in production.
SELECT pg_sleep(2.5);
