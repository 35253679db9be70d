package dev.jobqueue.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** docs/reference/configuration.md is what the metadata generates; with -Djobqueue.docs.regenerate=true it is written. */
class ConfigurationReferenceTests {

	private static final Path REFERENCE = Markdown.root().resolve("docs/reference/configuration.md");

	@Test
	void theCommittedReferenceIsCurrent() throws IOException {
		String generated = ConfigurationReference.generate(Metadata.load());
		if (Boolean.getBoolean("jobqueue.docs.regenerate")) {
			Files.createDirectories(REFERENCE.getParent());
			Files.writeString(REFERENCE, generated);
		}
		String committed = Files.exists(REFERENCE) ? Files.readString(REFERENCE) : "";
		assertThat(committed)
			.as("docs/reference/configuration.md is stale (or missing); regenerate it with:%n  %s%n",
					ConfigurationReference.COMMAND)
			.isEqualTo(generated);
	}

	@Test
	void everyPropertyHasADescription() {
		assertThat(Metadata.load().properties.values())
			.filteredOn(property -> property.name().startsWith("jobqueue."))
			.allSatisfy(property -> assertThat(property.description()).as(property.name()).isNotBlank());
	}

	@Test
	void theMapsOfQueuesAndSchedulesAreExpandedIntoTheirFields() {
		Metadata metadata = Metadata.load();
		assertThat(metadata.properties).containsKeys("jobqueue.queues.<name>.concurrency",
				"jobqueue.queues.<name>.prefetch", "jobqueue.schedules.<name>.cron",
				"jobqueue.schedules.<name>.misfire-threshold");
		assertThat(metadata.properties.get("jobqueue.queues.<name>.concurrency").defaultValue()).isEqualTo("8");
		assertThat(metadata.properties.get("jobqueue.schedules.<name>.misfire-threshold").defaultValue())
			.isEqualTo("1m");
	}
}
