package dev.jobqueue.runtime;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.jobqueue.JobContext;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.support.QueueFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One job run inline, without the database: bound from JSON as the runtime binds it, its result checked. */
class InlineRunnerTest {

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final InlineRunner inline = new InlineRunner(handlers, QueueFixture.JSON, QueueFixture.SETTINGS);

	private final List<Object> received = new CopyOnWriteArrayList<>();

	private final List<JobContext> contexts = new CopyOnWriteArrayList<>();

	InlineRunnerTest() {
		handlers.register(QueueFixture.definition("greet", Greeting.class, null, false, (greeting, context) -> {
			received.add(greeting);
			contexts.add(context);
			return greeting.name().equals("nul") ? "a\u0000b" : "hello " + greeting.name();
		}));
		handlers.register(QueueFixture.definition("io", Greeting.class, null, false, (greeting, context) -> {
			throw new IOException("disk full");
		}));
	}

	@Test
	void theHandlerRunsOnThePayloadRoundTrippedThroughJsonAndItsResultIsReturned() throws Exception {
		Object result = inline.perform("greet", Map.of("name", "ada", "count", 2));

		assertThat(result).isEqualTo("hello ada");
		assertThat(received).containsExactly(new Greeting("ada", 2));
		assertThat(contexts).singleElement().satisfies(context -> {
			assertThat(context.kind()).isEqualTo("greet");
			assertThat(context.attempt()).isEqualTo(1);
			assertThat(context.maxAttempts()).isEqualTo(QueueFixture.SETTINGS.retryPolicy().maxAttempts());
			assertThat(context.isLeaseHeld()).isTrue();
		});
	}

	@Test
	void aPayloadTheHandlersTypeCannotBindFailsAsItWouldInTheRuntime() {
		assertThatThrownBy(() -> inline.perform("greet", Map.of("name", "ada", "count", "many")))
			.hasMessageContaining("does not fit " + Greeting.class.getName());
		assertThat(received).isEmpty();
	}

	@Test
	void anUnknownKindIsRefusedNamingTheKindsServed() {
		assertThatIllegalArgumentException().isThrownBy(() -> inline.perform("gret", new Greeting("ada", 1)))
			.withMessage("no handler here serves kind 'gret' (kinds: greet, io)");
	}

	@Test
	void whatTheHandlerThrowsReachesTheCallerAsThrown() {
		assertThatThrownBy(() -> inline.perform("io", new Greeting("ada", 1))).isInstanceOf(IOException.class)
			.hasMessage("disk full");
	}

	@Test
	void aResultTheDatabaseCouldNotStoreFailsAsItWouldInTheRuntime() {
		assertThatThrownBy(() -> inline.perform("greet", new Greeting("nul", 1)))
			.isInstanceOf(NonRetryableException.class)
			.hasMessageContaining("holds U+0000");
	}
}
