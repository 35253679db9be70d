-- A job cancelled while it ran holds its slot of its concurrency key while its worker's lease is on it
-- (Transition.Facts#holdsSlot, docs/decisions/046). MySQL's promotions count holders in Java-generated SQL through
-- the key index (concurrency_key, key_state, id), which reaches a key's cancelled rows; nothing in the schema changes.
-- Version 30 is another change's; this one is recorded as 31 on every database (JobSchema.VERSION).
UPDATE jobqueue_schema_version SET version = 31;
