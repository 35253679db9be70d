package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.Node;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * The node registry: each runtime records itself with its queues and kinds, is seen again at each heartbeat (1 s
 * in the fixture's settings, so stale after 3 s), and removes itself when it stops; a node not seen for its
 * staleness is left out at once and deleted by the maintenance node.
 */
public abstract class NodeRegistryContractTest {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private static final RuntimeSettings TWO_QUEUES = QueueFixture.SETTINGS.toBuilder()
		.queue("default", 2)
		.queue("reports", 1)
		.pruneInterval(Duration.ofMillis(100))
		.build();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.handle("report", Greeting.class, (greeting, context) -> null);
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aRuntimeAppearsWithItsQueuesAndKindsAndDisappearsWhenItStops() {
		JobRuntime runtime = fixture.startRuntime(TWO_QUEUES, new CountingListener());

		List<Node> nodes = fixture.queue().nodes();

		assertThat(nodes).singleElement().satisfies(node -> {
			assertThat(node.name()).isEqualTo(runtime.owner());
			assertThat(runtime.owner()).contains("@" + node.host() + "/");
			assertThat(node.version()).matches("\\d+\\.\\d+\\.\\d+.*");
			assertThat(node.queues()).isEqualTo(Map.of("default", 2, "reports", 1));
			assertThat(node.kinds()).containsExactly("greet", "report");
			assertThat(node.lastSeenAt()).isAfterOrEqualTo(node.startedAt());
		});
		runtime.stop();
		assertThat(fixture.queue().nodes()).isEmpty();
	}

	@Test
	void eachHeartbeatMarksTheNodeSeenAgain() {
		fixture.startRuntime(TWO_QUEUES, new CountingListener());
		Node registered = fixture.queue().nodes().get(0);

		await().atMost(PATIENCE).until(() -> fixture.queue().nodes().get(0).lastSeenAt().isAfter(registered.startedAt()));
		assertThat(fixture.queue().nodes().get(0).startedAt()).isEqualTo(registered.startedAt());
	}

	@Test
	void aStaleNodeIsLeftOutAtOnceAndThenDeletedByTheMaintenanceNode() {
		fixture.store().nodes().registerNode(new NodeEntry("gone@elsewhere/1", "elsewhere", "0.0.1", Map.of("default", 4),
				List.of("greet")), Duration.ofMillis(1));
		await().atMost(PATIENCE).until(() -> fixture.queue().nodes().isEmpty());
		assertThat(rows("gone@elsewhere/1")).as("left out, not yet deleted").isEqualTo(1);

		JobRuntime maintainer = fixture.startRuntime(TWO_QUEUES, new CountingListener());

		await().atMost(PATIENCE).until(() -> rows("gone@elsewhere/1") == 0);
		assertThat(maintainer.maintaining()).isTrue();
		assertThat(fixture.queue().nodes()).extracting(Node::name).containsExactly(maintainer.owner());
	}

	@Test
	void aNodeWhoseRowWasDeletedRecordsItselfAgainAtItsNextHeartbeat() {
		JobRuntime runtime = fixture.startRuntime(TWO_QUEUES, new CountingListener());
		fixture.jdbc().sql("DELETE FROM jobqueue_node").update();

		await().atMost(PATIENCE).until(() -> !fixture.queue().nodes().isEmpty());
		assertThat(fixture.queue().nodes()).singleElement().satisfies(node -> {
			assertThat(node.name()).isEqualTo(runtime.owner());
			assertThat(node.kinds()).containsExactly("greet", "report");
		});
	}

	private int rows(String name) {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_node WHERE name = :name")
			.param("name", name)
			.query(Integer.class)
			.single();
	}
}
