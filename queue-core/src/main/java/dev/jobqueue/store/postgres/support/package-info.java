/**
 * Internal: what only PostgreSQL needs beside its SQL: the {@code NOTIFY} of ready jobs after commit and the
 * {@code LISTEN} that wakes pollers, the vacuum of the job table, and the {@code COPY} of enqueued jobs. Depends on
 * the store's contract and the API only, never on the dialect package that uses it. Not an API.
 */
package dev.jobqueue.store.postgres.support;
