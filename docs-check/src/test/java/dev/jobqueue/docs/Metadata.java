package dev.jobqueue.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;

import dev.jobqueue.autoconfigure.JobQueueProperties;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's configuration metadata ({@code META-INF/spring-configuration-metadata.json}, written by Spring Boot's
 * configuration processor), with the properties of map values ({@code jobqueue.queues.<name>.*},
 * {@code jobqueue.schedules.<name>.*}) added from their classes: the processor lists a map, not its values' fields, so
 * their descriptions are read from the Javadoc of those fields in the starter's source, and their defaults from a new
 * instance. The starter lists them too, for IDEs, in {@code additional-spring-configuration-metadata.json}
 * ({@link #listed}); {@link ConfigurationReferenceTests} holds the two equal.
 */
final class Metadata {

	/** One property: its name, its type as a reader sees it, its default (or null), its description. */
	record Property(String name, String type, String defaultValue, String description, List<String> values) {
	}

	/** A group of properties, such as {@code jobqueue.retry}, with its description. */
	record Group(String name, String description) {
	}

	/** A map property whose values are objects, such as {@code jobqueue.queues}, and their fields' properties. */
	record MapOfObjects(String name, String key, Class<?> valueType) {
	}

	final List<Group> groups = new ArrayList<>();

	final Map<String, Property> properties = new LinkedHashMap<>();

	/** The properties as the metadata file itself lists them, which is what an IDE reads: no map's values added. */
	final Map<String, Property> listed = new LinkedHashMap<>();

	/** Maps of scalars, such as {@code jobqueue.concurrency-key-limits}: any key is a property of its own. */
	final List<String> scalarMaps = new ArrayList<>();

	final List<MapOfObjects> objectMaps = new ArrayList<>();

	private Metadata() {
	}

	static Metadata load() {
		Metadata metadata = new Metadata();
		JsonNode json = read();
		Map<String, List<String>> hints = new LinkedHashMap<>();
		for (JsonNode hint : json.path("hints")) {
			List<String> values = new ArrayList<>();
			hint.path("values").forEach(value -> values.add(value.path("value").asString()));
			hints.put(hint.path("name").asString(), values);
		}
		for (JsonNode group : json.path("groups")) {
			metadata.groups.add(new Group(group.path("name").asString(), text(group.path("description"))));
		}
		for (JsonNode property : json.path("properties")) {
			String name = property.path("name").asString();
			String type = property.path("type").asString();
			if (type.startsWith("java.util.Map<") && type.contains("dev.jobqueue.")) {
				metadata.addObjectMap(name, type);
			}
			else if (type.startsWith("java.util.Map<")) {
				metadata.scalarMaps.add(name);
			}
			Property listed = new Property(name, type, defaultValue(property.path("defaultValue")),
					text(property.path("description")), hints.getOrDefault(name, enumValues(type)));
			metadata.listed.put(name, listed);
			metadata.properties.putIfAbsent(name, listed);
		}
		metadata.objectMaps.forEach(metadata::addFields);
		return metadata;
	}

	/** Whether a name is a property, a group, or a key of a map property. */
	boolean knows(String name) {
		if (properties.containsKey(name) || groups.stream().anyMatch(group -> group.name().equals(name))) {
			return true;
		}
		for (String map : scalarMaps) {
			if (name.startsWith(map + ".") && name.length() > map.length() + 1) {
				return true;
			}
		}
		for (MapOfObjects map : objectMaps) {
			if (name.startsWith(map.name() + ".")) {
				String rest = name.substring(map.name().length() + 1);
				int dot = rest.indexOf('.');
				if (dot < 0 || properties.containsKey(map.name() + "." + map.key() + "." + rest.substring(dot + 1))) {
					return !rest.isEmpty();
				}
			}
		}
		return false;
	}

	private void addObjectMap(String name, String type) {
		String valueType = type.substring(type.lastIndexOf(',') + 1, type.length() - 1).trim();
		String key = name.endsWith("queues") ? "<name>" : name.endsWith("schedules") ? "<name>" : "<key>";
		objectMaps.add(new MapOfObjects(name, key, load(valueType)));
	}

	/**
	 * The fields of a map's values, from their Javadoc and a new instance: what the reference documents, and what
	 * the metadata file's own entries for them must say.
	 */
	private void addFields(MapOfObjects map) {
		String name = map.name();
		String key = map.key();
		Class<?> values = map.valueType();
		Map<String, String> docs = FieldDocs.of(values);
		Object defaults = instantiate(values);
		for (Field field : values.getDeclaredFields()) {
			if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) || !docs.containsKey(field.getName())) {
				continue;
			}
			String property = name + "." + key + "." + kebab(field.getName());
			properties.put(property, new Property(property, field.getGenericType().getTypeName(),
					defaultOf(field, defaults), docs.get(field.getName()), enumValues(field.getType().getName())));
		}
	}

	static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static String defaultOf(Field field, Object instance) {
		try {
			field.setAccessible(true);
			Object value = field.get(instance);
			if (value == null) {
				return null;
			}
			if (value instanceof Duration duration) {
				return duration(duration);
			}
			if (value instanceof Enum<?> constant) {
				return constant.name().toLowerCase(Locale.ROOT);
			}
			return String.valueOf(value);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A duration as the metadata writes one: {@code 0}, {@code 500ms}, {@code 10s}, {@code 1m}, {@code 14d}. */
	static String duration(Duration duration) {
		long millis = duration.toMillis();
		if (millis == 0) {
			return "0";
		}
		long[] sizes = { 86_400_000, 3_600_000, 60_000, 1000 };
		String[] units = { "d", "h", "m", "s" };
		for (int i = 0; i < sizes.length; i++) {
			if (millis % sizes[i] == 0) {
				return millis / sizes[i] + units[i];
			}
		}
		return millis + "ms";
	}

	private static String defaultValue(JsonNode value) {
		if (value.isMissingNode() || value.isNull()) {
			return null;
		}
		if (value.isArray()) {
			List<String> items = new ArrayList<>();
			value.forEach(item -> items.add(item.asString()));
			return String.join(", ", items);
		}
		return value.asString();
	}

	private static List<String> enumValues(String type) {
		Optional<Class<?>> loaded = tryLoad(type);
		if (loaded.isPresent() && loaded.get().isEnum()) {
			return Arrays.stream(loaded.get().getEnumConstants())
				.map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
				.toList();
		}
		return List.of();
	}

	/** Javadoc as Markdown: {@code {@code x}} as code, {@code {@link A#b}} as {@code A.b}, on one line. */
	static String text(String javadoc) {
		return javadoc.replaceAll("\\{@(?:code|literal)\\s+([^}]*)}", "`$1`")
			.replaceAll("\\{@link(?:plain)?\\s+([^}\\s]*)(?:\\s[^}]*)?}", "`$1`")
			.replaceAll("`(\\w*)#(\\w+)`", "`$1.$2`")
			.replaceAll("`\\.(\\w)", "`$1")
			.replaceAll("\\s+", " ")
			.trim();
	}

	private static String text(JsonNode description) {
		return description.isMissingNode() || description.isNull() ? "" : text(description.asString());
	}

	private static JsonNode read() {
		try (InputStream in = location().openStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The metadata of the starter itself, not of another jar on the class path. */
	private static URL location() throws IOException {
		URL classes = JobQueueProperties.class.getProtectionDomain().getCodeSource().getLocation();
		String file = "META-INF/spring-configuration-metadata.json";
		return classes.toString().endsWith(".jar") ? URI.create("jar:" + classes + "!/" + file).toURL()
				: URI.create(classes + file).toURL();
	}

	private static Class<?> load(String name) {
		return tryLoad(name).orElseThrow(() -> new IllegalStateException("No class " + name));
	}

	private static Optional<Class<?>> tryLoad(String name) {
		try {
			return Optional.of(Class.forName(name));
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return Optional.empty();
		}
	}

	private static Object instantiate(Class<?> type) {
		try {
			var constructor = type.getDeclaredConstructor();
			constructor.setAccessible(true);
			return constructor.newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot create a " + type.getName() + " to read its defaults", ex);
		}
	}

	/** The Javadoc of a class's fields, read from the starter's source with the compiler's parser. */
	static final class FieldDocs {

		private FieldDocs() {
		}

		static Map<String, String> of(Class<?> type) {
			Class<?> top = type;
			while (top.getEnclosingClass() != null) {
				top = top.getEnclosingClass();
			}
			Path source = Markdown.root()
				.resolve("queue-spring-boot-starter/src/main/java")
				.resolve(top.getName().replace('.', '/') + ".java");
			JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
			try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
				JavacTask task = (JavacTask) compiler.getTask(null, files, null, List.of("-proc:none"), null,
						files.getJavaFileObjects(source));
				DocTrees docs = DocTrees.instance(task);
				Map<String, String> fields = new LinkedHashMap<>();
				for (CompilationUnitTree unit : task.parse()) {
					new TreePathScanner<Void, Void>() {
						@Override
						public Void visitVariable(VariableTree variable, Void unused) {
							TreePath path = getCurrentPath();
							Tree parent = path.getParentPath().getLeaf();
							if (parent instanceof ClassTree owner && owner.getSimpleName().contentEquals(type.getSimpleName())
									&& !variable.getModifiers().getFlags().contains(Modifier.STATIC)) {
								DocCommentTree doc = docs.getDocCommentTree(path);
								if (doc != null) {
									fields.put(variable.getName().toString(), text(doc.getFullBody()
										.stream()
										.map(Object::toString)
										.collect(Collectors.joining())));
								}
							}
							return null;
						}
					}.scan(unit, null);
				}
				return fields;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}
}
