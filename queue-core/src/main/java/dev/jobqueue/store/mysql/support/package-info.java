/**
 * Internal: what only MySQL and MariaDB need beside their SQL: the two claims ({@code SKIP LOCKED}, or a
 * compare-and-set where the server has none) with their candidates and confirmation, the transactions of the
 * store's own (READ COMMITTED, deadlocks retried), statement values, and the watcher that wakes pollers for other
 * processes' jobs. Depends on the store's contract and the API only, never on the dialect package that uses it. Not
 * an API.
 */
package dev.jobqueue.store.mysql.support;
