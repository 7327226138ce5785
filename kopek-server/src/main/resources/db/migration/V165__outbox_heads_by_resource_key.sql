-- The polling relay finds a resource's earlier unpublished events through the outbox's unique key (resource_type,
-- resource_id, sequence) instead of a partial index of its own: ix_outbox_unpublished_resource goes.
--
-- Why: every event is an insert into each of the outbox's indexes, two per payment, and without Kafka no row is ever
-- published, so that partial index held every event for a query that never runs. A resource has a handful of events,
-- all found in the unique index under its (resource_type, resource_id); the relay filters them on published_at and
-- log_position as before (OutboxStore.claimBatch); the two index inserts saved are 41 thousand of the 3.26 million
-- instructions a payment costs the backend (Script K). ix_outbox_unpublished (log order of the unpublished rows) stays:
-- it is how the relay finds the heads without reading what it already published.
DROP INDEX ix_outbox_unpublished_resource;
