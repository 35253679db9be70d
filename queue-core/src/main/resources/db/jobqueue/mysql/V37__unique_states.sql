-- Unique jobs that also hold their key in finished states, as on PostgreSQL (see the script of the same version
-- there). MySQL has no partial index: the generated column the unique index covers is the key's hash while the row
-- holds the key, by TransitionSql.holdsUniqueKey word for word, else null. It keeps its name, which older nodes'
-- statements read while an upgrade rolls out. unique_key widens to fit a key of 1024 bytes with its period's bucket
-- ('@' and an instant). Both rebuild the table.
ALTER TABLE jobqueue_job ADD COLUMN unique_states INT NULL;

ALTER TABLE jobqueue_job
    MODIFY unique_key VARCHAR(1100),
    MODIFY unfinished_unique_key BINARY(32) AS (CASE WHEN (state IN ('waiting', 'blocked', 'ready', 'running') OR (unique_states & CASE state WHEN 'succeeded' THEN 1 WHEN 'dead' THEN 2 WHEN 'cancelled' THEN 4 ELSE 0 END) <> 0)
                                                     THEN UNHEX(SHA2(unique_key, 256)) END) STORED;

UPDATE jobqueue_schema_version SET version = 37;
