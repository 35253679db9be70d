/**
 * The queue without Spring Boot: {@link dev.jobqueue.core.JobQueues}, one builder over a {@code DataSource}. A
 * promise, like the API package.
 */
package dev.jobqueue.core;
