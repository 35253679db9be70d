/**
 * Test support for applications that use the queue, in the spirit of Oban.Testing and River's rivertest:
 * {@link dev.jobqueue.test.JobQueueTester} asserts what a test enqueued, drains due jobs on the test's
 * thread, runs one job inline and moves the queue's clock. For test scope only.
 */
package dev.jobqueue.test;
