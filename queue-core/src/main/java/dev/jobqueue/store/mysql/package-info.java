/**
 * The queue's SQL for MySQL 8 and MariaDB: claims with {@code FOR UPDATE SKIP LOCKED} (or a compare-and-set on
 * servers without it), wakeups of the enqueuing process after its commit and polling for the others. Readable alone:
 * depends on the store's contract, the API and its own {@code support} package only. Not an API.
 */
package dev.jobqueue.store.mysql;
