package dev.jobqueue.autoconfigure;

class PostgresCrossNodeWakeupTests extends AbstractCrossNodeWakeupTests {

	@Override
	protected String freshDatabaseUrl(String name) {
		return PostgresSchemas.fresh(name);
	}
}
