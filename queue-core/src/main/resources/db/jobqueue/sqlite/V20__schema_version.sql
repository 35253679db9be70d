-- The version of the queue's schema, written by the migrations themselves, as on PostgreSQL (V20 there says why).
CREATE TABLE jobqueue_schema_version (
    single  INTEGER PRIMARY KEY DEFAULT 1 CHECK (single = 1),
    version INTEGER NOT NULL
) STRICT;
INSERT INTO jobqueue_schema_version (version) VALUES (20);
