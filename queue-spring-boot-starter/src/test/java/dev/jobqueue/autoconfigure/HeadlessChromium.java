package dev.jobqueue.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium and its chromedriver, found on the PATH (never downloaded: Selenium Manager is
 * not asked). Without them the test is skipped with a notice, except under {@code CI=true}, where a missing
 * browser fails it, as a missing database does.
 */
final class HeadlessChromium {

	private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

	private HeadlessChromium() {
	}

	static WebDriver start() {
		Path browser = executable("chromium", "chromium-browser", "google-chrome");
		Path driver = executable("chromedriver");
		ChromeOptions options = new ChromeOptions().setBinary(browser.toFile())
			.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1300");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
			.usingAnyFreePort()
			.build();
		return new ChromeDriver(service, options);
	}

	/** Saves what the browser shows as {@code target/console-screenshots/<name>.png}. */
	static Path screenshot(WebDriver browser, String name) {
		try {
			Files.createDirectories(SCREENSHOTS);
			Path file = SCREENSHOTS.resolve(name + ".png");
			Path taken = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
			return Files.copy(taken, file, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path executable(String... names) {
		Optional<Path> found = Stream.of(names).flatMap(HeadlessChromium::onPath).findFirst();
		if (found.isEmpty()) {
			String problem = "No " + names[0] + " on the PATH (apt-get install chromium chromium-driver)";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(problem + "; under CI=true this is a failure, not a skip");
			}
			Assumptions.abort(problem);
		}
		return found.get();
	}

	private static Stream<Path> onPath(String name) {
		String path = System.getenv().getOrDefault("PATH", "/usr/bin");
		return List.of(path.split(File.pathSeparator))
			.stream()
			.map(folder -> Path.of(folder, name))
			.filter(Files::isExecutable);
	}
}
