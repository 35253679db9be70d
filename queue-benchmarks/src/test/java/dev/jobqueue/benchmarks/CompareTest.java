package dev.jobqueue.benchmarks;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Compare's mistakes fail before anything is built or run, naming what was wrong. */
class CompareTest {

	@Test
	void aComparisonNeedsAGitRef() {
		assertThatThrownBy(() -> Compare.run(new String[] { "compare" })).hasMessageContaining("needs a git ref");
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "--rounds", "3" }))
			.hasMessageContaining("needs a git ref");
	}

	@Test
	void theSystemsAndTheResultsFileAreCompares() {
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "HEAD", "--systems", "db-scheduler" }))
			.hasMessageContaining("--systems is compare's own");
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "HEAD", "--out", "x.tsv" }))
			.hasMessageContaining("--out is compare's own");
	}

	@Test
	void roundsAreAPositiveWholeNumberAndWorkloadsAreKnown() {
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "HEAD", "--rounds", "0" }))
			.hasMessageContaining("--rounds must be a positive whole number, was 0");
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "HEAD", "--workloads", "dran" }))
			.hasMessageContaining("first argument must be a workload");
		assertThatThrownBy(() -> Compare.run(new String[] { "compare", "HEAD", "--rounds" }))
			.hasMessageContaining("--rounds needs a value");
	}
}
