package dev.jobqueue.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.jobqueue.JobState;

/**
 * The rule of which rows hold their unique key is written once, in {@link TransitionSql#holdsUniqueKey}; each dialect's
 * migration writes it into an index (or MySQL's generated column) that the enqueue's conflict clause must match word
 * for word. The contract test's table of cases proves what the rule does on each database.
 */
class UniqueStatesMigrationTest {

	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql", "sqlite" })
	void eachDialectsMigrationWritesTheRuleAsTheStatementsDo(String dialect) throws IOException {
		String script = read("db/jobqueue/" + dialect + "/V37__unique_states.sql");

		assertThat(script).contains(TransitionSql.BOOLEAN_COLUMNS.holdsUniqueKey(""))
			.contains(TransitionSql.INTEGER_COLUMNS.holdsUniqueKey(""));
	}

	@ParameterizedTest
	@ValueSource(strings = { "succeeded", "dead", "cancelled" })
	void eachFinishedStateHasABitOfItsOwn(String state) {
		int bit = TransitionSql.uniqueStates(List.of(JobState.valueOf(state)));

		assertThat(Integer.bitCount(bit)).isOne();
		assertThat(TransitionSql.BOOLEAN_COLUMNS.holdsUniqueKey("")).contains("WHEN '" + state + "' THEN " + bit + " ");
	}

	private static String read(String resource) throws IOException {
		try (InputStream in = UniqueStatesMigrationTest.class.getClassLoader().getResourceAsStream(resource)) {
			assertThat(in).as(resource).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}
}
