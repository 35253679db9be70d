package dev.jobqueue.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's Markdown files, read the way the checks need them: fenced blocks, prose, headings. */
final class Markdown {

	private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})(.*)$");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

	private Markdown() {
	}

	/** The repository's root, as the build passes it. */
	static Path root() {
		return Path.of(System.getProperty("jobqueue.docs.root", "..")).toAbsolutePath().normalize();
	}

	/** Every Markdown file of the repository, outside build output and tool folders. */
	static List<Path> allFiles() {
		try (Stream<Path> files = Files.walk(root())) {
			return files.filter(path -> path.toString().endsWith(".md"))
				.filter(path -> root().relativize(path).toString().split("[/\\\\]").length > 0)
				.filter(path -> {
					for (Path part : root().relativize(path)) {
						String name = part.toString();
						if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
							return false;
						}
					}
					return true;
				})
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The user-facing pages: README, CONTRIBUTING, the guide and the operations pages. */
	static List<Path> userFiles() {
		return allFiles().stream().filter(path -> {
			String relative = relative(path);
			return relative.equals("README.md") || relative.equals("CONTRIBUTING.md")
					|| relative.startsWith("docs/guide/") || relative.startsWith("docs/operations/");
		}).toList();
	}

	static String relative(Path path) {
		return root().relativize(path).toString().replace('\\', '/');
	}

	static List<String> lines(Path path) {
		try {
			return Files.readAllLines(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A fenced block: its info string, its text and the line of the file its text starts on (1-based). */
	record Block(String info, String text, int line) {
	}

	static List<Block> blocks(Path path) {
		List<Block> blocks = new ArrayList<>();
		List<String> lines = lines(path);
		String fence = null;
		String info = null;
		int start = 0;
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < lines.size(); i++) {
			Matcher matcher = FENCE.matcher(lines.get(i));
			if (fence == null && matcher.matches()) {
				fence = matcher.group(1);
				info = matcher.group(2).trim();
				start = i + 2;
				text.setLength(0);
			}
			else if (fence != null && matcher.matches() && matcher.group(1).startsWith(fence)
					&& matcher.group(2).isBlank()) {
				blocks.add(new Block(info, text.toString(), start));
				fence = null;
			}
			else if (fence != null) {
				text.append(lines.get(i)).append('\n');
			}
		}
		return blocks;
	}

	/** The lines outside fenced blocks, by line number (1-based), with inline code spans blanked out. */
	static Map<Integer, String> prose(Path path, boolean keepInlineCode) {
		Map<Integer, String> prose = new LinkedHashMap<>();
		List<String> lines = lines(path);
		String fence = null;
		for (int i = 0; i < lines.size(); i++) {
			Matcher matcher = FENCE.matcher(lines.get(i));
			if (fence == null && matcher.matches()) {
				fence = matcher.group(1);
			}
			else if (fence != null && matcher.matches() && matcher.group(1).startsWith(fence)
					&& matcher.group(2).isBlank()) {
				fence = null;
			}
			else if (fence == null) {
				String line = lines.get(i);
				prose.put(i + 1, keepInlineCode ? line : line.replaceAll("`[^`]*`", "``"));
			}
		}
		return prose;
	}

	/** The anchors GitHub gives the headings of a file: lower case, punctuation dropped, spaces to '-'. */
	static List<String> anchors(Path path) {
		List<String> anchors = new ArrayList<>();
		Map<String, Integer> seen = new LinkedHashMap<>();
		for (String line : prose(path, true).values()) {
			Matcher matcher = HEADING.matcher(line);
			if (!matcher.matches()) {
				continue;
			}
			String slug = slug(matcher.group(1));
			int count = seen.merge(slug, 1, Integer::sum);
			anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
		}
		return anchors;
	}

	static String slug(String heading) {
		String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
		return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
	}
}
