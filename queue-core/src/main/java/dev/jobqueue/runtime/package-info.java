/**
 * Internal: the worker runtime (pollers, runner, heartbeat, watchdog, reaper, pruner, vacuumer) and the
 * {@code JobQueue} over a store. Public only so that the Spring Boot starter can assemble it; not an API, and any
 * release may change it. Knows the store's contract, never which database it runs on.
 */
package dev.jobqueue.runtime;
