/**
 * The API: what an application enqueues with ({@link dev.jobqueue.JobQueue}, {@link dev.jobqueue.EnqueueOptions}),
 * what its handlers see ({@link dev.jobqueue.JobContext}, {@link dev.jobqueue.NonRetryableException}), how they are
 * declared ({@link dev.jobqueue.JobHandlerFunction}, {@link dev.jobqueue.HandlerOptions},
 * {@link dev.jobqueue.RetryPolicy}, {@link dev.jobqueue.PayloadUpcaster}), how the workers run ({@link dev.jobqueue.RuntimeSettings}) and what they report
 * ({@link dev.jobqueue.JobListener}, {@link dev.jobqueue.Job}), and what an operator asks of the cluster
 * ({@link dev.jobqueue.JobExplanation}, {@link dev.jobqueue.Node}). Depends on nothing else of the queue's. These types
 * are a promise: they change only with notice.
 */
package dev.jobqueue;
