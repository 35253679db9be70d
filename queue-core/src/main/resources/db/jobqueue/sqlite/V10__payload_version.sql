-- The version of the payload's shape, as its handler declared it when the job was enqueued: see the
-- PostgreSQL script of the same version. Rows written before this ran are version 1.
ALTER TABLE jobqueue_job ADD COLUMN payload_version INTEGER NOT NULL DEFAULT 1 CHECK (payload_version >= 1);
