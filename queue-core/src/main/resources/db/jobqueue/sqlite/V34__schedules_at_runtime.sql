-- Schedules added, paused and triggered at runtime, as on PostgreSQL (see the script of the same version there).
-- paused_at is INTEGER milliseconds since the epoch, like the table's other times.
ALTER TABLE jobqueue_schedule ADD COLUMN definition TEXT CHECK (definition IS NULL OR json_valid(definition));
ALTER TABLE jobqueue_schedule ADD COLUMN paused_at INTEGER;

UPDATE jobqueue_schema_version SET version = 34;
