-- Issue 25, section 3: psp_calls_by_time (V80) is an index no query reads. The PSP call log is read by provider key
-- (the console's payment story, ConsoleQueries: psp_calls_by_key, which orders a key's calls by started_at itself)
-- and by id (the one_psp_movement_per_key audit's slices, OneMovementPerKeyCheck: the primary key); nothing reads
-- the calls by time alone, and nothing deletes them by age. Each PSP call, one or more per payment, was one index
-- insertion and its WAL more for the log's writer.
DROP INDEX IF EXISTS psp_calls_by_time;
