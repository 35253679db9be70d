-- Schedules added, paused and triggered at runtime (JobQueue.schedules()).
-- definition is the whole schedule of one added at runtime, as JSON: its timing, kind, payload, queue, priority,
-- misfire policy, payload version and attempts, all resolved when it was added, so that every node fires it alike
-- whatever handlers it has. It is null for a schedule declared in code, whose nodes hold the rest.
-- paused_at is when an operator paused the schedule, on the database's clock: no node fires it until it is resumed.
-- A resume sets next_fire_at to null, and the next node that knows the schedule writes its next fire time after now,
-- so the fire times passed while it was paused are neither fired nor counted as misfires.
ALTER TABLE jobqueue_schedule ADD COLUMN definition text, ADD COLUMN paused_at timestamptz;

UPDATE jobqueue_schema_version SET version = 34;
