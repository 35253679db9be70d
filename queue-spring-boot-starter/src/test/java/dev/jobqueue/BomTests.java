package dev.jobqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM manages every module that is published (any module of the build without
 * {@code maven.deploy.skip}), at the build's own version, and inherits nothing: importing it brings
 * jobqueue's versions and no one else's.
 */
class BomTests {

	private static final Path ROOT = Path.of("..");

	@Test
	void theBomManagesEveryPublishedModuleAtTheProjectVersion() throws Exception {
		Document bom = read(ROOT.resolve("queue-bom/pom.xml"));
		List<String> managed = new ArrayList<>();
		for (Element dependency : elements(bom.getElementsByTagName("dependency"))) {
			assertThat(text(dependency, "groupId")).isEqualTo("dev.jobqueue");
			assertThat(text(dependency, "version")).isEqualTo("${project.version}");
			managed.add(text(dependency, "artifactId"));
		}

		assertThat(managed).containsAll(publishedModules());
		assertThat(bom.getElementsByTagName("parent").getLength()).as("a parent's management would leak").isZero();
		assertThat(text(bom.getDocumentElement(), "version"))
			.isEqualTo(text(read(ROOT.resolve("pom.xml")).getDocumentElement(), "version"));
	}

	private static List<String> publishedModules() throws Exception {
		List<String> published = new ArrayList<>();
		for (Element module : elements(read(ROOT.resolve("pom.xml")).getElementsByTagName("module"))) {
			Document pom = read(ROOT.resolve(module.getTextContent()).resolve("pom.xml"));
			String artifactId = text(pom.getDocumentElement(), "artifactId");
			boolean skipped = pom.getElementsByTagName("maven.deploy.skip").getLength() > 0;
			if (!skipped && !"pom".equals(text(pom.getDocumentElement(), "packaging"))) {
				published.add(artifactId);
			}
		}
		assertThat(published).as("the published modules").contains("queue-core", "queue-spring-boot-starter");
		return published;
	}

	private static Document read(Path pom) throws Exception {
		assertThat(pom).exists();
		try (var in = Files.newInputStream(pom)) {
			return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
		}
	}

	private static List<Element> elements(NodeList nodes) {
		List<Element> elements = new ArrayList<>();
		for (int i = 0; i < nodes.getLength(); i++) {
			elements.add((Element) nodes.item(i));
		}
		return elements;
	}

	/** The text of {@code parent}'s own child {@code name}, not of a deeper one; null when it has none. */
	private static String text(Element parent, String name) {
		for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
			if (child instanceof Element element && element.getTagName().equals(name)) {
				return element.getTextContent().trim();
			}
		}
		return null;
	}
}
