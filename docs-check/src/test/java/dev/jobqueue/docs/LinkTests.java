package dev.jobqueue.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every relative link of every Markdown file names a file that exists and, with '#', a heading it has. */
class LinkTests {

	private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*(\\S+)");

	@TestFactory
	Stream<DynamicTest> everyRelativeLinkResolves() {
		return Markdown.allFiles().stream()
			.map(file -> DynamicTest.dynamicTest(Markdown.relative(file),
					() -> assertThat(brokenLinks(file)).as("broken links in %s", Markdown.relative(file)).isEmpty()));
	}

	@Test
	void aMissingFileAndAMissingAnchorAreFound() throws IOException {
		Path dir = Files.createDirectories(Markdown.root().resolve("docs-check/target/link-check"));
		Path page = Files.writeString(dir.resolve("page.md"), String.join("\n", "# A `real` heading",
				"[gone](nope.md), [anchor](#missing), [fine](#a-real-heading), [web](https://example.com)",
				"`[in code](nope.md)`", "```", "[in a block](nope.md)", "```", ""));
		assertThat(brokenLinks(page)).containsExactly("line 2: nope.md (no such file)",
				"line 2: #missing (no heading with this anchor in docs-check/target/link-check/page.md)");
	}

	static List<String> brokenLinks(Path file) {
		List<String> broken = new ArrayList<>();
		for (Map.Entry<Integer, String> line : Markdown.prose(file, false).entrySet()) {
			List<String> targets = new ArrayList<>();
			Matcher link = LINK.matcher(line.getValue());
			while (link.find()) {
				targets.add(link.group(1));
			}
			Matcher reference = REFERENCE.matcher(line.getValue());
			if (reference.find()) {
				targets.add(reference.group(1));
			}
			for (String target : targets) {
				String problem = problem(file, target);
				if (problem != null) {
					broken.add("line " + line.getKey() + ": " + target + " (" + problem + ")");
				}
			}
		}
		return broken;
	}

	private static String problem(Path file, String target) {
		if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("//")) {
			return null; // http:, https:, mailto: and the like are not checked here
		}
		int hash = target.indexOf('#');
		String path = hash < 0 ? target : target.substring(0, hash);
		String anchor = hash < 0 ? null : target.substring(hash + 1);
		Path resolved = path.isEmpty() ? file
				: (path.startsWith("/") ? Markdown.root().resolve(path.substring(1)) : file.getParent().resolve(path))
					.normalize();
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (anchor != null && !anchor.isEmpty() && resolved.toString().endsWith(".md")
				&& !Markdown.anchors(resolved).contains(anchor)) {
			return "no heading with this anchor in " + Markdown.relative(resolved);
		}
		return null;
	}
}
