package dev.jobqueue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The queue's own main classes, core and starter, as the build made them: no test classes, no test jars. */
final class OurClasses {

	static final JavaClasses ALL = new ClassFileImporter()
		.withImportOption(location -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.jobqueue");

	private OurClasses() {
	}
}
