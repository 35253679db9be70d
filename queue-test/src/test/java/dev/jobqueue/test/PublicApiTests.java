package dev.jobqueue.test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The types of this module that tests may write against, listed in {@code queue-test-public-api.txt}, as
 * the starter's PublicApiTests lists those of the core and the starter: a public type that appears or
 * disappears fails here until the list changes with it, on purpose.
 */
class PublicApiTests {

	@Test
	void thePublicTypesAreThoseListed() throws IOException {
		List<String> actual = new ClassFileImporter()
			.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption(location -> !location.contains("/test-classes/"))
			.importPackages("dev.jobqueue.test")
			.stream()
			.filter(type -> type.getPackageName().equals("dev.jobqueue.test"))
			.filter(PublicApiTests::isVisibleToUsers)
			.map(JavaClass::getName)
			.sorted()
			.toList();

		assertThat(actual)
			.as("public types of dev.jobqueue.test; update queue-test-public-api.txt when a change is meant")
			.containsExactlyElementsOf(listed());
	}

	private static boolean isVisibleToUsers(JavaClass type) {
		if (!type.getModifiers().contains(JavaModifier.PUBLIC) || type.getSimpleName().equals("package-info")) {
			return false;
		}
		return type.getEnclosingClass().map(PublicApiTests::isVisibleToUsers).orElse(true);
	}

	private static List<String> listed() throws IOException {
		try (InputStream in = PublicApiTests.class.getResourceAsStream("/queue-test-public-api.txt")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
				.filter(line -> !line.isBlank() && !line.startsWith("#"))
				.toList();
		}
	}
}
