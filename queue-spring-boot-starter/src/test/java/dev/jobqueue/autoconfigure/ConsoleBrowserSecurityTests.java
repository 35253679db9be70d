package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static dev.jobqueue.autoconfigure.ConsoleApplications.killThreeJobs;
import static dev.jobqueue.autoconfigure.ConsoleApplications.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.springframework.context.ConfigurableApplicationContext;

import com.sun.net.httpserver.HttpServer;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * The console's writes in a real browser (headless Chromium): behind the documented Spring Security setup an
 * anonymous visitor sees nothing, the operator retries a job from its page, a form on another site that posts to the
 * console with the operator's credentials is refused, and so is the console's own form stripped of its CSRF token;
 * without Spring Security, with writes allowed, the cross-site form is refused by the console's origin check. Each
 * refused post changes nothing.
 */
class ConsoleBrowserSecurityTests {

	private WebDriver browser;

	private HttpServer otherSite;

	@BeforeEach
	void startBrowser() {
		browser = HeadlessChromium.start();
	}

	@AfterEach
	void stop() {
		browser.quit();
		if (otherSite != null) {
			otherSite.stop(0);
		}
	}

	@Test
	void behindTheDocumentedSetupAnonymousIsRefusedTheOperatorRetriesAndACrossSiteFormFailsTheCsrfCheck()
			throws IOException {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Secured.class, "console_browser_secured",
				"jobqueue.console.writes-enabled=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			List<Long> dead = killThreeJobs(queue);
			String base = base(app);

			browser.get(base + "/");
			HeadlessChromium.screenshot(browser, "9-anonymous");
			assertThat(browser.findElements(By.id("counts"))).as("the overview, to an anonymous visitor").isEmpty();

			browser.get(base.replace("http://", "http://ops:night-shift@") + "/jobs/" + dead.get(0));
			browser.findElement(By.id("retry")).click();
			await().atMost(Duration.ofSeconds(10)).until(() -> queue.find(dead.get(0)).orElseThrow().state() == JobState.ready);

			browser.get(crossSiteForm(base + "/jobs/" + dead.get(1) + "/retry"));
			browser.findElement(By.id("go")).click();
			HeadlessChromium.screenshot(browser, "9-cross-site-post-secured");
			assertThat(queue.find(dead.get(1)).orElseThrow().state()).isEqualTo(JobState.dead);

			// The console's own form without its token: past the origin check, the CSRF filter must refuse it.
			browser.get(base.replace("http://", "http://ops:night-shift@") + "/jobs/" + dead.get(2));
			((JavascriptExecutor) browser).executeScript("document.querySelectorAll('input[name=_csrf]')"
					+ ".forEach(token => token.remove())");
			browser.findElement(By.id("retry")).click();
			HeadlessChromium.screenshot(browser, "10-post-without-csrf-token");
			assertThat(queue.find(dead.get(2)).orElseThrow().state()).isEqualTo(JobState.dead);
		}
	}

	@Test
	void withoutSpringSecurityACrossSiteFormPostIsRefusedByTheOriginCheck() throws IOException {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_browser_origin",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = killThreeJobs(queue).get(0);

			browser.get(crossSiteForm(base(app) + "/jobs/" + id + "/retry"));
			browser.findElement(By.id("go")).click();
			HeadlessChromium.screenshot(browser, "11-cross-site-post-unsecured");

			assertThat(browser.getPageSource()).contains("Refused", "not from another site");
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.dead);
		}
	}

	/**
	 * A page on another origin (another port of this host: the same site, so the browser sends its cookies and
	 * cached credentials along) with a form that posts to {@code target}; returns its address.
	 */
	private String crossSiteForm(String target) throws IOException {
		otherSite = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
		byte[] page = ("<!doctype html><title>Prize</title><form method=\"post\" action=\"" + target + "\">"
				+ "<button id=\"go\" type=\"submit\">Claim your prize</button></form>").getBytes(StandardCharsets.UTF_8);
		otherSite.createContext("/", exchange -> {
			exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
			exchange.sendResponseHeaders(200, page.length);
			exchange.getResponseBody().write(page);
			exchange.close();
		});
		otherSite.start();
		return "http://localhost:" + otherSite.getAddress().getPort() + "/prize";
	}
}
