package dev.jobqueue.benchmarks;

/**
 * A job table as production keeps it: {@code finished} succeeded jobs, finished 50 ms apart over the last 20
 * hours (within their day of retention, so the pruner keeps them), and {@code parked} jobs due in an hour in each
 * of the queues given; vacuumed and analyzed, as autovacuum would have left it. PostgreSQL only.
 */
final class Prefill {

	private Prefill() {
	}

	static void fill(Database database, int finished, int parked, String... queues) {
		database.jdbc().sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, attempt, max_attempts, created_at,
				                          started_at, finished_at)
				SELECT 'default', 'bench', '-1', 'succeeded', t, 1, 3, t, t, t
				FROM (SELECT now() - interval '20 hours' + i * interval '50 milliseconds' AS t
				      FROM generate_series(1, :finished) AS i) s""")
			.param("finished", finished)
			.update();
		for (String queue : queues) {
			database.jdbc().sql("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, max_attempts)
					SELECT :queue, 'bench', '-1', 'ready', now() + interval '1 hour', 3
					FROM generate_series(1, :parked)""")
				.param("queue", queue)
				.param("parked", parked)
				.update();
		}
		database.jdbc().sql("VACUUM ANALYZE jobqueue_job").update();
	}
}
