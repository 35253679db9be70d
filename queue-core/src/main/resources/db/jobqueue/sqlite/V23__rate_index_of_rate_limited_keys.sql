-- PostgreSQL's V23 narrows its index of recent starts to rate-limited keys. SQLite keeps V17's index of every keyed
-- row: its promotion counts a key's slot holders and recent starts in one condition (SqlitePromotions), which only
-- an index of all the key's rows can serve; narrowed, the count read the whole table for every key. Nothing changes
-- here but the recorded schema version, the same on both databases, as JobSchema.VERSION names one version for both.
UPDATE jobqueue_schema_version SET version = 23;
