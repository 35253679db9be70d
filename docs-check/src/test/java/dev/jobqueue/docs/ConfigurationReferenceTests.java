package dev.jobqueue.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

	/**
	 * An IDE reads the metadata file, not this reference: every property documented here is listed there, with the
	 * description and default the reference gives (those of map values, such as queues' and schedules' fields,
	 * come from their Javadoc and instances; the file's own entries for them must agree).
	 */
	@Test
	void everyDocumentedPropertyIsInTheMetadataFileAsDocumented() throws IOException {
		Metadata metadata = Metadata.load();
		List<String> documented = Files.readAllLines(REFERENCE)
			.stream()
			.filter(line -> line.startsWith("### `"))
			.map(line -> line.substring("### `".length(), line.length() - 1))
			.toList();
		assertThat(documented).contains("jobqueue.queues.<name>.concurrency", "jobqueue.schedules.<name>.cron");
		assertThat(documented).allSatisfy(name -> {
			assertThat(metadata.listed).as("the metadata file's entries").containsKey(name);
			Metadata.Property listed = metadata.listed.get(name);
			Metadata.Property reference = metadata.properties.get(name);
			assertThat(listed.description()).as("description of %s", name).isEqualTo(reference.description());
			assertThat(listed.defaultValue()).as("default of %s", name).isEqualTo(reference.defaultValue());
			assertThat(ConfigurationReference.type(listed.type())).as("type of %s", name)
				.isEqualTo(ConfigurationReference.type(reference.type()));
		});
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
