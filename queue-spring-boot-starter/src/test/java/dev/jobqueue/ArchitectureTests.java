package dev.jobqueue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.or;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package map of docs/architecture.md, enforced: which of our packages each package may use. A new
 * dependency that breaks it fails here, naming the classes.
 */
class ArchitectureTests {

	private static final String API = "dev.jobqueue";

	private static final String STORE = "dev.jobqueue.store";

	@Test
	void theApiDependsOnNothingElseOfOurs() {
		mayUse(API).check(OurClasses.ALL);
	}

	@Test
	void theStoreContractDependsOnTheApiAlone() {
		mayUse(STORE, API).check(OurClasses.ALL);
	}

	@Test
	void eachDialectIsReadableAloneOnTheStoreContract() {
		mayUse("dev.jobqueue.store.postgres..", STORE, API).check(OurClasses.ALL);
		mayUse("dev.jobqueue.store.sqlite..", STORE, API).check(OurClasses.ALL);
	}

	@Test
	void theRuntimeKnowsTheStoreContractButNoDatabase() {
		mayUse("dev.jobqueue.runtime", STORE, API).check(OurClasses.ALL);
	}

	@Test
	void onlyTheDialectListKnowsEveryDatabase() {
		mayUse("dev.jobqueue.dialects", "dev.jobqueue.store..", API).check(OurClasses.ALL);
	}

	@Test
	void theBuilderAssemblesTheCore() {
		mayUse("dev.jobqueue.core", "dev.jobqueue.runtime", "dev.jobqueue.dialects", "dev.jobqueue.store..", API)
			.check(OurClasses.ALL);
	}

	@Test
	void theStarterAnnotationsAndCustomizerUseTheApiAlone() {
		mayUse("dev.jobqueue.spring", API).check(OurClasses.ALL);
	}

	@Test
	void theCoreNeverUsesSpringBoot() {
		noClasses().that()
			.resideInAnyPackage(API, "dev.jobqueue.core", "dev.jobqueue.runtime", "dev.jobqueue.dialects",
					"dev.jobqueue.store..")
			.should().dependOnClassesThat().resideInAPackage("org.springframework.boot..")
			.check(OurClasses.ALL);
	}

	@Test
	void ourPackagesHaveNoCycles() {
		slices().matching("dev.jobqueue.(**)").should().beFreeOfCycles().check(OurClasses.ALL);
	}

	/** Classes of {@code pkg} may use, of ours, only {@code pkg} itself and {@code allowed}. */
	private static ArchRule mayUse(String pkg, String... allowed) {
		List<String> packages = new ArrayList<>(List.of(allowed));
		packages.add(pkg);
		return classes().that().resideInAPackage(pkg)
			.should().onlyDependOnClassesThat(or(resideOutsideOfPackage("dev.jobqueue.."),
					resideInAnyPackage(packages.toArray(String[]::new))))
			.as("classes of " + pkg + " use only " + packages + " of ours");
	}
}
