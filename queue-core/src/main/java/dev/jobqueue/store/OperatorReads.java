package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;

/** The operator's look-ups of jobs: one by id, a page of a search, and the schema the tables are at. */
public interface OperatorReads {

	Optional<Job> find(long id);

	/** The jobs of {@code ids} that exist, highest id first. */
	List<Job> findAll(Collection<Long> ids);

	/**
	 * The search of the jobs {@code query} selects (its page size aside), its statement chosen once for all the pages
	 * or batches read through it: a search's page, or a bulk operation's batches.
	 */
	IdSearch search(JobQuery query);

	/**
	 * The other job of the same kind that holds the unique key of the dead job {@code id}
	 * ({@link TransitionSql#holdsUniqueKey}): why it cannot be retried.
	 */
	Optional<Long> holderOfUniqueKey(long id);

	/**
	 * The schema version the migrations recorded in {@code jobqueue_schema_version}; empty when that table
	 * does not exist: the queue's tables were never created, or are older than the version that added it.
	 * Checked at startup by {@link JobSchema#verify}.
	 */
	OptionalInt schemaVersion();

	/** The ids a search selects, a page at a time. */
	@FunctionalInterface
	interface IdSearch {

		/**
		 * The ids of up to {@code limit} jobs the search selects with an id below {@code beforeId}, highest first.
		 * Keyset pagination, never OFFSET, so each page costs the same however deep it is, and jobs enqueued
		 * meanwhile (higher ids) never shift the pages after the first.
		 */
		List<Long> idsBefore(long beforeId, int limit);
	}
}
