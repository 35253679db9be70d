package dev.jobqueue.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {

	@TempDir
	Path dir;

	@Test
	void mediansRangesAndRatiosTakenWithinEachRun() throws Exception {
		Path one = run("one", 9000, 3000, "20000 jobs, duplicates 0, lost 0");
		Path two = run("two", 12000, 3000, "TIMED OUT after 60 s with 5 of 20000 done, duplicates 1, lost 19995");
		Path three = run("three", 10000, 5000, "20000 jobs, duplicates 0, lost 0");

		String table = new Summary(List.of(one, two, three)).markdown();

		assertThat(table).startsWith("### drain\n\n| metric | system | median |");
		assertThat(table).contains("| jobs/s | jobqueue | 10,000 | 9,000 – 12,000 | 3 |  | duplicates 0, lost 0 |");
		// Ratios per run are 3.0, 4.0 and 2.0: their median, not the ratio of the medians (3.33).
		assertThat(table).contains(
				"| jobs/s | db-scheduler | 3,000 | 3,000 – 5,000 | 3 | 3.00× | timed out in 1 of 3 runs; duplicates 1, lost 19995 |");
	}

	@Test
	void aTimeIsBetterWhenShorter() throws Exception {
		Path file = dir.resolve("latency.tsv");
		Files.writeString(file, "latency-other-jvm\tjobqueue\tp50 ms\t5.0\tms\t\n"
				+ "latency-other-jvm\tdb-scheduler\tp50 ms\t55.0\tms\t\n");
		assertThat(new Summary(List.of(file)).markdown()).contains("| p50 ms | db-scheduler | 55.0 | 55.0 – 55.0 | 1 | 11.0× |");
	}

	private Path run(String name, double ours, double theirs, String theirNotes) throws Exception {
		Path file = dir.resolve(name + ".tsv");
		Files.writeString(file, "drain\tjobqueue\tjobs/s\t" + ours + "\t1/s\t20000 jobs, duplicates 0, lost 0\n"
				+ "drain\tdb-scheduler\tjobs/s\t" + theirs + "\t1/s\t" + theirNotes + "\n");
		return file;
	}
}
