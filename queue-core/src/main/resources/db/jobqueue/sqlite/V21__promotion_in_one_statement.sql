-- PostgreSQL's V21 rewrites its promotion function. SQLite promotes in Java (SqlitePromotions), one write
-- transaction that counts and promotes, and has nothing to change: this migration keeps the recorded schema
-- version the same on both databases, as JobSchema.VERSION names one version for both.
UPDATE jobqueue_schema_version SET version = 21;
