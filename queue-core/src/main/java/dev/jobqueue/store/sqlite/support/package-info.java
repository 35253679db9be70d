/**
 * Internal: what only SQLite needs beside its SQL: the queue's view of the application's {@code DataSource} (WAL,
 * busy timeout, {@code BEGIN IMMEDIATE}, the in-process write gate), the bounded retries of a busy database, the
 * lock file that serializes migrations, and the file watcher that wakes pollers. Depends on the store's contract and
 * the API only, never on the dialect package that uses it. Not an API.
 */
package dev.jobqueue.store.sqlite.support;
