/**
 * What a Spring Boot application declares: {@link dev.jobqueue.spring.JobHandler} and
 * {@link dev.jobqueue.spring.JobPayloadUpcaster} methods, the
 * {@link dev.jobqueue.spring.JobQueueDataSource} qualifier and {@link dev.jobqueue.spring.JobQueueCustomizer}
 * beans. A promise, like the API package; depends on the API package alone.
 */
package dev.jobqueue.spring;
