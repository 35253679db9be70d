-- The version of the queue's schema, written by the migrations themselves so that every node can check at
-- startup that the tables are the ones its code needs, whichever tool applied the migrations: our Flyway run,
-- or a team's own Liquibase changelog or scripts built from these files. Every later migration ends by
-- setting it to its own version (JobSchemaVersionTest holds them to it).
CREATE TABLE jobqueue_schema_version (
    single  boolean PRIMARY KEY DEFAULT true CHECK (single),
    version integer NOT NULL
);
INSERT INTO jobqueue_schema_version (version) VALUES (20);
