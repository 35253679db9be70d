package dev.jobqueue;

/**
 * Why a job is not running, or what became of it ({@link JobQueue#explain(long)}): the first reason that applies,
 * checked in the order of {@link Reason}'s constants, and a sentence saying it in plain English.
 *
 * @param jobId the job asked about
 * @param reason the reason, for programs
 * @param message the reason in one English sentence, for people
 */
public record JobExplanation(long jobId, Reason reason, String message) {

	/** The reasons, in the order they are checked: the first that applies is the answer. */
	public enum Reason {

		/** No such job: never enqueued, or finished and pruned. */
		NOT_FOUND,

		/** It succeeded; the sentence says when. */
		SUCCEEDED,

		/** It was cancelled; the sentence says when. */
		CANCELLED,

		/**
		 * Its attempts are spent (or its failure was not retryable); the sentence gives the last error, and says
		 * when it holds its concurrency key's slot ({@link HandlerOptions#deadJobBlocksKey(boolean)}), which keeps
		 * it past retention until it is retried or cancelled.
		 */
		DEAD,

		/** A node runs it now; the sentence names the node and its lease's expiry. */
		RUNNING,

		/**
		 * It runs after other jobs ({@link EnqueueOptions#after}), and one of them has not finished; the sentence
		 * names it, and where it stands.
		 */
		WAITING_FOR_DEPENDENCIES,

		/**
		 * It is a batch's callback ({@link Batch#onFinish}, {@link Batch#onFailure}), and the batch has not finished,
		 * nor, for a failure callback, has a job of it ended dead; the sentence says how many of its jobs are
		 * unfinished.
		 */
		WAITING_FOR_BATCH,

		/** Its queue is paused for every node. */
		QUEUE_PAUSED,

		/** Its kind is paused for every node. */
		KIND_PAUSED,

		/** No live node (node registry) works its queue. */
		NO_NODE_FOR_QUEUE,

		/** Live nodes work its queue, but none of them has a handler for its kind. */
		NO_NODE_FOR_KIND,

		/** It waits for a slot of its concurrency key, which earlier jobs of the key hold. */
		CONCURRENCY_KEY_HELD,

		/** Its concurrency key has a rate, and the starts within the rate's period use it up. */
		RATE_LIMITED,

		/** Its concurrency key has a free slot: a promotion makes it ready within a poll interval. */
		AWAITING_PROMOTION,

		/** Its last attempt failed and it waits out the backoff before the next. */
		IN_BACKOFF,

		/** It is due later (enqueued with a delay, or snoozed). */
		DUE_LATER,

		/** It is due, but every thread of its queue on the nodes that serve it is busy. */
		NODES_BUSY,

		/** It is due and a thread is free: it should start within a poll interval. */
		READY
	}
}
