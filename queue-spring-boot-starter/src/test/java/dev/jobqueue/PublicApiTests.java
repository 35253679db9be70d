package dev.jobqueue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The types users may write against, listed in {@code public-api.txt}: a public type that appears in or
 * disappears from the promised packages fails here until the list is changed with it, on purpose.
 */
class PublicApiTests {

	/** The packages whose public types are promises; the others say in their package docs that they are internal. */
	private static final Set<String> PROMISED = Set.of("dev.jobqueue", "dev.jobqueue.core", "dev.jobqueue.spring",
			"dev.jobqueue.autoconfigure");

	@Test
	void thePublicTypesAreThoseListed() throws IOException {
		List<String> actual = OurClasses.ALL.stream()
			.filter(type -> PROMISED.contains(type.getPackageName()))
			.filter(PublicApiTests::isVisibleToUsers)
			.map(JavaClass::getName)
			.sorted()
			.toList();

		assertThat(actual).as("public types of %s; update public-api.txt when a change is meant", PROMISED)
			.containsExactlyElementsOf(listed());
	}

	/** Public, and nested only in public types; package-info is not a type. */
	private static boolean isVisibleToUsers(JavaClass type) {
		if (!type.getModifiers().contains(JavaModifier.PUBLIC) || type.getSimpleName().equals("package-info")) {
			return false;
		}
		return type.getEnclosingClass().map(PublicApiTests::isVisibleToUsers).orElse(true);
	}

	private static List<String> listed() throws IOException {
		try (InputStream in = PublicApiTests.class.getResourceAsStream("/public-api.txt")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
				.filter(line -> !line.isBlank() && !line.startsWith("#"))
				.toList();
		}
	}
}
