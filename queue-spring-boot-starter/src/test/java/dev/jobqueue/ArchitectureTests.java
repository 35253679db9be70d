package dev.jobqueue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.base.DescribedPredicate.or;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.ENUMS;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.INTERFACES;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
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

	private static final List<String> DIALECTS = List.of("dev.jobqueue.store.postgres", "dev.jobqueue.store.sqlite",
			"dev.jobqueue.store.mysql");

	private static final DescribedPredicate<JavaClass> RECORDS = DescribedPredicate.describe("records",
			type -> type.getRawSuperclass().map(parent -> parent.isEquivalentTo(Record.class)).orElse(false));

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
		for (String dialect : DIALECTS) {
			mayUse(dialect + "..", STORE, API).check(OurClasses.ALL);
		}
	}

	@Test
	void noDialectNamesAnotherDialectsClasses() {
		for (String dialect : DIALECTS) {
			String[] others = DIALECTS.stream().filter(other -> !other.equals(dialect)).map(other -> other + "..")
				.toArray(String[]::new);
			noClasses().that().resideInAPackage(dialect + "..")
				.should().dependOnClassesThat().resideInAnyPackage(others)
				.as("classes of " + dialect + " name no other dialect's")
				.check(OurClasses.ALL);
		}
	}

	/** What only one database needs serves its dialect, and never reaches back into it. */
	@Test
	void aDialectsSupportPackageNeverUsesTheDialect() {
		for (String dialect : DIALECTS) {
			noClasses().that().resideInAPackage(dialect + ".support..")
				.should().dependOnClassesThat().resideInAPackage(dialect)
				.check(OurClasses.ALL);
		}
	}

	@Test
	void theRuntimeKnowsTheStoreContractButNoDatabase() {
		mayUse("dev.jobqueue.runtime", STORE, API).check(OurClasses.ALL);
	}

	/**
	 * Of the store package, the runtime uses the role interfaces, the bundle of them ({@link JobStore}) and the
	 * values they exchange (records and enums): never a {@link Dialect} or a helper that holds a connection. Nor
	 * does it use JDBC itself, but for two exception types it reads when it sorts a failed write into one worth
	 * retrying and one the batch caused ({@code OutcomeWriter}): {@link SQLException}'s SQLSTATE, and Spring's
	 * {@link CannotGetJdbcConnectionException}.
	 */
	@Test
	void theRuntimeReachesTheDatabaseOnlyThroughTheRoleInterfaces() {
		DescribedPredicate<JavaClass> storeHelper = resideInAPackage(STORE)
			.and(not(INTERFACES.or(ENUMS).or(RECORDS)))
			.or(equivalentTo(Dialect.class))
			.as("are store classes other than role interfaces and values");
		DescribedPredicate<JavaClass> jdbc = resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework.jdbc..")
			.and(not(equivalentTo(SQLException.class)))
			.and(not(equivalentTo(CannotGetJdbcConnectionException.class)))
			.as("are JDBC's (SQLException and CannotGetJdbcConnectionException aside)");
		noClasses().that().resideInAPackage("dev.jobqueue.runtime")
			.should().dependOnClassesThat(storeHelper.or(jdbc))
			.check(OurClasses.ALL);
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
