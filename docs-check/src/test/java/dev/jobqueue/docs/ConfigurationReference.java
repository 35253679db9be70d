package dev.jobqueue.docs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes docs/reference/configuration.md from the starter's configuration metadata: one section per group, one
 * entry per property with its type, default and description. The prose is the Javadoc of the properties' fields.
 */
final class ConfigurationReference {

	static final String COMMAND = "./mvnw -q -pl docs-check -am verify -Dtest=ConfigurationReferenceTests "
			+ "-Dsurefire.failIfNoSpecifiedTests=false -Djobqueue.docs.regenerate=true";

	private ConfigurationReference() {
	}

	static String generate(Metadata metadata) {
		StringBuilder out = new StringBuilder();
		out.append("# Configuration reference\n\n");
		out.append("<!-- Generated from the starter's configuration metadata by the docs-check module; do not edit.\n");
		out.append("     The text is the Javadoc of JobQueueProperties and JobQueueHealthProperties. Regenerate with:\n");
		out.append("     ").append(COMMAND).append(" -->\n\n");
		out.append("Every property of the starter, with its type, default and meaning. Durations take `500ms`, `10s`, "
				+ "`5m`, `1h`, `14d` or ISO-8601 (`PT30S`). An invalid value fails the startup, naming the property, and so "
				+ "does a name under `jobqueue.` that is none of these (environment variables aside). "
				+ "Where each is explained: [the guide](../guide/getting-started.md).\n");
		List<Section> sections = sections(metadata);
		out.append("\n");
		for (Section section : sections) {
			out.append("- [`").append(section.title()).append("`](#").append(Markdown.slug("`" + section.title() + "`"))
				.append(")\n");
		}
		for (Section section : sections) {
			out.append("\n## `").append(section.title()).append("`\n");
			if (!section.description().isEmpty()) {
				out.append("\n").append(section.description()).append("\n");
			}
			for (Metadata.Property property : section.properties()) {
				out.append("\n### `").append(property.name()).append("`\n\n");
				out.append(type(property.type()));
				if (property.defaultValue() != null && !property.defaultValue().isEmpty()) {
					out.append(", default `").append(property.defaultValue()).append('`');
				}
				if (!property.values().isEmpty()) {
					out.append(", one of ").append(String.join(", ", property.values().stream().map(v -> "`" + v + "`").toList()));
				}
				out.append(".");
				if (!property.description().isEmpty()) {
					out.append(" ").append(property.description());
				}
				out.append("\n");
			}
		}
		return out.toString();
	}

	record Section(String title, String description, List<Metadata.Property> properties) {
	}

	private static List<Section> sections(Metadata metadata) {
		List<Section> sections = new ArrayList<>();
		List<Metadata.Group> groups = new ArrayList<>(metadata.groups);
		groups.sort(Comparator.comparing(Metadata.Group::name));
		for (Metadata.Group group : groups) {
			List<Metadata.Property> inGroup = metadata.properties.values()
				.stream()
				.filter(property -> parent(property.name()).equals(group.name()))
				.sorted(Comparator.comparing(Metadata.Property::name))
				.toList();
			String description = group.name().equals("jobqueue") ? "" : group.description();
			sections.add(new Section(group.name(), description, inGroup));
			if (group.name().equals("jobqueue")) {
				for (Metadata.MapOfObjects map : metadata.objectMaps) {
					String prefix = map.name() + "." + map.key();
					List<Metadata.Property> fields = metadata.properties.values()
						.stream()
						.filter(property -> parent(property.name()).equals(prefix))
						.sorted(Comparator.comparing(Metadata.Property::name))
						.toList();
					sections.add(new Section(prefix, metadata.properties.get(map.name()).description(), fields));
				}
			}
		}
		return sections;
	}

	private static String parent(String name) {
		return name.substring(0, name.lastIndexOf('.'));
	}

	/** A type as a reader of YAML sees it. */
	static String type(String javaType) {
		String type = javaType.replace("java.lang.", "").replace("java.time.", "").replace("java.util.", "");
		if (type.startsWith("Map<String,")) {
			String value = type.substring("Map<String,".length(), type.length() - 1);
			return value.contains("dev.jobqueue") ? "Map of names to the properties below" : "Map of keys to " + type(value);
		}
		if (type.startsWith("List<")) {
			return "List of " + type(type.substring(5, type.length() - 1));
		}
		return switch (type) {
			case "Boolean", "boolean" -> "Boolean";
			case "Integer", "int" -> "Integer";
			case "Double", "double" -> "Number";
			default -> type.contains(".") ? type.substring(type.lastIndexOf('.') + 1).replace('$', '.') : type;
		};
	}
}
