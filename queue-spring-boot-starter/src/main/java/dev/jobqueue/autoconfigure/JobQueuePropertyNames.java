package dev.jobqueue.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;

/**
 * The names that {@link JobQueueProperties} and {@link JobQueueHealthProperties} bind, read from their bean
 * properties as Spring Boot's binder reads them: a nested class of ours is a group of names; a map of such classes
 * (queues, schedules) takes any name, then the class's names below it; a map of values (concurrency key limits)
 * takes any key; a list takes indexes. Names are compared in Boot's uniform form, so that every spelling Boot binds
 * (kebab-case, camelCase, underscores, brackets) is known.
 */
final class JobQueuePropertyNames {

	static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("jobqueue");

	/** A key of a map of values, which runs to the end of the name. */
	private static final String ANY_KEY = "<key>";

	/** A key of a map of objects: one element, followed by the object's names. */
	private static final String ANY_NAME = "<name>";

	private static final ResolvableType ROOT_TYPE = ResolvableType.forClass(JobQueueProperties.class);

	private JobQueuePropertyNames() {
	}

	/** Whether {@code name}, under {@link #ROOT}, is a property or a group that jobqueue binds. */
	static boolean knows(ConfigurationPropertyName name) {
		return knows(ROOT_TYPE, name, 1);
	}

	/**
	 * The known property nearest to {@code name} in spelling, with the names and keys {@code name} gives in the
	 * places that take any: {@code jobqueue.queue.pq.concurrency} is nearest to {@code jobqueue.queues.pq.concurrency}.
	 */
	static String nearest(ConfigurationPropertyName name) {
		String written = name.toString();
		String nearest = null;
		int distance = Integer.MAX_VALUE;
		for (List<String> template : templates()) {
			String candidate = fill(template, name);
			int candidateDistance = distance(written, candidate);
			if (candidateDistance < distance) {
				nearest = candidate;
				distance = candidateDistance;
			}
		}
		return nearest;
	}

	private static boolean knows(ResolvableType type, ConfigurationPropertyName name, int index) {
		if (index == name.getNumberOfElements()) {
			return true;
		}
		Class<?> raw = type.toClass();
		if (Map.class.isAssignableFrom(raw)) {
			ResolvableType values = type.asMap().getGeneric(1);
			return !isGroup(values.toClass()) || knows(values, name, index + 1);
		}
		if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
			return name.isNumericIndex(index) && index + 1 == name.getNumberOfElements();
		}
		if (!isGroup(raw)) {
			return false;
		}
		String element = name.getElement(index, Form.UNIFORM);
		for (Map.Entry<String, ResolvableType> property : properties(raw).entrySet()) {
			if (uniform(property.getKey()).equals(element)) {
				return knows(property.getValue(), name, index + 1);
			}
		}
		return false;
	}

	/** The bean properties of a group, and the health properties under the root's {@code health}. */
	private static Map<String, ResolvableType> properties(Class<?> group) {
		Map<String, ResolvableType> properties = new LinkedHashMap<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(group)) {
			if (descriptor.getReadMethod() != null && !"class".equals(descriptor.getName())) {
				properties.put(descriptor.getName(), ResolvableType.forMethodReturnType(descriptor.getReadMethod()));
			}
		}
		if (group == JobQueueProperties.class) {
			properties.put("health", ResolvableType.forClass(JobQueueHealthProperties.class));
		}
		return properties;
	}

	/** A class of this package, such as {@link JobQueueProperties.Queue}: a group of names, not a value. */
	private static boolean isGroup(Class<?> type) {
		return !type.isEnum() && type.getPackageName().equals(JobQueueProperties.class.getPackageName());
	}

	/** Every known property, kebab-case, with {@link #ANY_NAME} and {@link #ANY_KEY} where any is taken. */
	private static List<List<String>> templates() {
		List<List<String>> templates = new ArrayList<>();
		collect(ROOT_TYPE, new ArrayList<>(List.of(ROOT.toString())), templates);
		return templates;
	}

	private static void collect(ResolvableType type, List<String> prefix, List<List<String>> templates) {
		Class<?> raw = type.toClass();
		if (Map.class.isAssignableFrom(raw) && isGroup(type.asMap().getGeneric(1).toClass())) {
			collect(type.asMap().getGeneric(1), with(prefix, ANY_NAME), templates);
		}
		else if (Map.class.isAssignableFrom(raw)) {
			templates.add(with(prefix, ANY_KEY));
		}
		else if (isGroup(raw)) {
			properties(raw).forEach((name, property) -> collect(property, with(prefix, kebab(name)), templates));
		}
		else {
			templates.add(prefix);
		}
	}

	/** The template with the name's own elements where it takes any (or the placeholder, past its end). */
	private static String fill(List<String> template, ConfigurationPropertyName name) {
		List<String> elements = new ArrayList<>();
		for (int i = 0; i < template.size(); i++) {
			String element = template.get(i);
			if (ANY_NAME.equals(element) && i < name.getNumberOfElements()) {
				elements.add(name.getElement(i, Form.ORIGINAL));
			}
			else if (ANY_KEY.equals(element) && i < name.getNumberOfElements()) {
				elements.add(name.subName(i).toString());
			}
			else {
				elements.add(element);
			}
		}
		return String.join(".", elements);
	}

	private static List<String> with(List<String> prefix, String element) {
		List<String> elements = new ArrayList<>(prefix);
		elements.add(element);
		return elements;
	}

	private static String uniform(String camel) {
		return camel.toLowerCase(Locale.ROOT);
	}

	private static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	/** Levenshtein's distance: the fewest insertions, deletions and substitutions that turn one into the other. */
	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}
}
