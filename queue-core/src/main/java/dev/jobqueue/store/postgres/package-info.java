/**
 * Internal: PostgreSQL's SQL (claims with {@code FOR UPDATE SKIP LOCKED}, batched completions, {@code COPY}
 * enqueues), its schema migration, {@code LISTEN}/{@code NOTIFY} wakeups and vacuuming. Readable alone: depends on
 * the store's contract, the API and its own {@code support} package only. Not an API.
 */
package dev.jobqueue.store.postgres;
