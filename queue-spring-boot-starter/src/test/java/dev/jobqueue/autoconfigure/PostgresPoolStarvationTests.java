package dev.jobqueue.autoconfigure;

class PostgresPoolStarvationTests extends AbstractPoolStarvationTests {

	@Override
	protected String freshDatabaseUrl(String name) {
		return PostgresSchemas.fresh(name);
	}
}
