-- Schedules added, paused and triggered at runtime, as on PostgreSQL (see the script of the same version there).
ALTER TABLE jobqueue_schedule ADD COLUMN definition TEXT, ADD COLUMN paused_at DATETIME(6);

UPDATE jobqueue_schema_version SET version = 34;
