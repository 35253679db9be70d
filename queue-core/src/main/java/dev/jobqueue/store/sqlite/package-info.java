/**
 * Internal: SQLite's SQL (claims under {@code BEGIN IMMEDIATE}), its connection plumbing (WAL, busy handling,
 * the in-process write gate), its schema migration under a file lock and the file watcher that wakes pollers.
 * Readable alone: depends on the store's contract, the API and its own {@code support} package only. Not an API.
 */
package dev.jobqueue.store.sqlite;
