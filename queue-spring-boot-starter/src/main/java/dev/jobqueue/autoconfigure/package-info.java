/**
 * The auto-configuration, the {@code jobqueue.*} properties ({@link dev.jobqueue.autoconfigure.JobQueueProperties}),
 * metrics, health and the Actuator endpoint. Its public classes are public as Spring Boot needs them (to import or
 * exclude an auto-configuration, to bind properties); their names are a promise, their members beyond the
 * properties are not.
 */
package dev.jobqueue.autoconfigure;
