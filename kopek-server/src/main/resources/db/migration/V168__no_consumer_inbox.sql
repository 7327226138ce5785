-- The consumer inbox (V20) served an Inbox class that no production code ever called: Kopek consumes none of its
-- own events. The class, its test and its cleanup are gone (issue 23); so is the table. Inbound PSP notifications
-- keep their own table (psp_notifications), which this does not touch.
DROP TABLE inbox;
