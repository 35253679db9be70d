package dev.jobqueue.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Java snippet of README.md and docs/guide that is marked complete (a fence with the info string
 * {@code java complete}) compiles on its own against the starter, queue-test and Spring Boot, as an application
 * would be compiled.
 */
class SnippetTests {

	static final String MARKER = "java complete";

	private static final Pattern PUBLIC_TYPE = Pattern
		.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

	record Snippet(Path file, Markdown.Block block) {

		String name() {
			return Markdown.relative(file) + ":" + block.line();
		}
	}

	static List<Snippet> completeSnippets() {
		List<Snippet> snippets = new ArrayList<>();
		for (Path file : Markdown.allFiles()) {
			String relative = Markdown.relative(file);
			if (relative.equals("README.md") || relative.startsWith("docs/guide/")) {
				Markdown.blocks(file).stream()
					.filter(block -> block.info().equals(MARKER))
					.forEach(block -> snippets.add(new Snippet(file, block)));
			}
		}
		return snippets;
	}

	@Test
	void theReadmeAndEveryGuidePageHaveCompleteSnippets() {
		List<String> withSnippets = completeSnippets().stream().map(s -> Markdown.relative(s.file())).toList();
		assertThat(withSnippets).contains("README.md", "docs/guide/getting-started.md",
				"docs/guide/recurring-jobs.md", "docs/guide/flow-control.md");
	}

	@TestFactory
	Stream<DynamicTest> everyCompleteSnippetCompiles() {
		return completeSnippets().stream()
			.map(snippet -> DynamicTest.dynamicTest(snippet.name(),
					() -> assertThat(compile(snippet)).as("compiler errors of %s", snippet.name()).isEmpty()));
	}

	private static List<String> compile(Snippet snippet) throws IOException {
		String source = snippet.block().text();
		Matcher publicType = PUBLIC_TYPE.matcher(source);
		String name = publicType.find() ? publicType.group(1) : "Snippet";
		JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///" + name + ".java"),
				JavaFileObject.Kind.SOURCE) {
			@Override
			public CharSequence getCharContent(boolean ignoreEncodingErrors) {
				return source;
			}
		};
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		Path out = Files.createTempDirectory("snippet");
		try {
			List<String> options = List.of("-proc:none", "--release", "17", "-parameters", "-d", out.toString(),
					"-classpath", classpath());
			boolean compiled = compiler.getTask(null, null, diagnostics, options, null, List.of(unit)).call();
			List<String> errors = diagnostics.getDiagnostics()
				.stream()
				.filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
				.map(d -> Markdown.relative(snippet.file()) + " line "
						+ (snippet.block().line() + d.getLineNumber() - 1) + ": " + d.getMessage(null))
				.toList();
			return compiled || !errors.isEmpty() ? errors : List.of("did not compile");
		}
		finally {
			delete(out);
		}
	}

	private static String classpath() {
		return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
	}

	private static void delete(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
