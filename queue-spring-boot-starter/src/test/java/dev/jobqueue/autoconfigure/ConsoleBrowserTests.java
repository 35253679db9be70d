package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.HOSTILE_CARD;
import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static dev.jobqueue.autoconfigure.ConsoleApplications.killThreeJobs;
import static dev.jobqueue.autoconfigure.ConsoleApplications.post;
import static dev.jobqueue.autoconfigure.ConsoleApplications.start;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.autoconfigure.ConsoleApplications.Charge;

/**
 * The console in a real browser (headless Chromium through Selenium) against a running application: the overview
 * (with each queue's oldest ready job and its jobs finished per minute), the dead jobs, one job's errors and
 * explanation, a bulk retry of the ticked jobs and of every match, a cancel and a delete of every match, the cancel of
 * a running job, pauses of queues and kinds, a schedule run now, paused and resumed, the pages' own refresh; that every
 * change is an audit line; that a read-only console offers no button and refuses a POST; the job list's keyset pages,
 * and a bad filter's 400. Each page is saved under {@code target/console-screenshots}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConsoleBrowserTests {

	private WebDriver browser;

	@BeforeEach
	void startBrowser() {
		browser = HeadlessChromium.start();
	}

	@AfterEach
	void quitBrowser() {
		browser.quit();
	}

	@Test
	void anOperatorFindsTheDeadJobsSeesWhyTheyDiedAndRetriesThem() {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_browser",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			List<Long> dead = killThreeJobs(app.getBean(JobQueue.class));
			String base = base(app);

			browser.get(base + "/");
			HeadlessChromium.screenshot(browser, "1-overview");
			assertThat(browser.findElement(By.id("total-dead")).getText()).isEqualTo("3");
			assertThat(browser.findElement(By.id("nodes")).getText()).contains("charge-card");
			assertThat(browser.findElement(By.id("oldest-default")).getText()).isEmpty();
			assertThat(browser.findElement(By.id("finished-default")).getText()).isEqualTo("0 / 0 / 3");

			browser.get(base + "/jobs");
			new Select(browser.findElement(By.name("state"))).selectByVisibleText("dead");
			browser.findElement(By.cssSelector("#filter button")).click();
			HeadlessChromium.screenshot(browser, "2-dead-jobs");
			assertThat(browser.findElements(By.cssSelector("#jobs td.dead"))).hasSize(3);

			browser.findElement(By.linkText(String.valueOf(dead.get(0)))).click();
			HeadlessChromium.screenshot(browser, "3-job");
			assertThat(browser.findElement(By.id("explain")).getText()).contains("dead", "2 attempts");
			assertThat(browser.findElement(By.id("errors")).getText()).contains("card declined",
					"at dev.jobqueue.autoconfigure.ConsoleApplications$Charges.charge");
			assertThat(browser.findElement(By.id("payload")).getText()).contains(HOSTILE_CARD);
			assertThat(browser.findElement(By.id("log")).getText()).contains("charging " + HOSTILE_CARD);
			assertThat(browser.findElement(By.id("progress")).getAttribute("value")).isEqualTo("1");

			browser.navigate().back();
			List<WebElement> boxes = browser.findElements(By.cssSelector("#jobs input[type=checkbox]"));
			assertThat(boxes).hasSize(3).noneMatch(WebElement::isSelected);
			boxes.get(0).click();
			boxes.get(1).click();
			browser.findElement(By.id("retry-selected")).click();
			HeadlessChromium.screenshot(browser, "4-after-retry");
			assertThat(shown(By.id("retried")).getText()).isEqualTo("Retried 2 jobs.");

			browser.get(base + "/");
			HeadlessChromium.screenshot(browser, "5-overview-after-retry");
			assertThat(browser.findElement(By.id("total-dead")).getText()).isEqualTo("1");
			assertThat(browser.findElement(By.id("total-ready")).getText()).isEqualTo("2");
			assertThat(browser.findElement(By.id("oldest-default")).getText()).matches("\\d+s");

			browser.findElement(By.linkText("Schedules")).click();
			HeadlessChromium.screenshot(browser, "8-schedules");
			assertThat(browser.findElement(By.id("schedules")).getText()).contains("nightly-report",
					"0 0 2 * * *", "active");
		}
	}

	@Test
	void aRetryOfEveryMatchingJobSaysHowManyBeforeItRetriesAndIsRecordedInTheAuditLog(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_retry_matching",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			List<Long> dead = killThreeJobs(queue);
			String base = base(app);

			browser.get(base + "/jobs?state=dead&kind=charge-card");
			browser.findElement(By.id("retry-matching")).click();
			assertThat(shown(By.id("preview")).getText())
				.isEqualTo("Retry 3 dead jobs of kind charge-card?");
			HeadlessChromium.screenshot(browser, "9-retry-matching-preview");
			assertThat(dead).extracting(id -> queue.find(id).orElseThrow().state()).containsOnly(JobState.dead);
			browser.findElement(By.id("confirm")).click();

			assertThat(shown(By.id("retried")).getText()).isEqualTo("Retried 3 jobs.");
			assertThat(dead).extracting(id -> queue.find(id).orElseThrow().state()).containsOnly(JobState.ready);
			assertThat(output).contains("console: anonymous retried 3 dead jobs of kind charge-card");
			assertThat(browser.findElements(By.id("cancel-matching"))).isEmpty();
		}
	}

	@Test
	void theJobListFiltersByErrorTextAndARetryOfTheMatchesKeepsTheFilter(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_error_filter",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			List<Long> dead = killThreeJobs(queue);
			String base = base(app);

			HttpResponse<String> forged = post(URI.create(base + "/jobs/retry-matching"),
					"state=dead&error=" + URLEncoder.encode("nothing\nconsole: admin deleted everything", UTF_8));
			assertThat(forged.statusCode()).isEqualTo(302);
			assertThat(output).contains("whose error holds 'nothing?console: admin deleted everything'")
				.doesNotContain("\nconsole: admin deleted everything");

			browser.get(base + "/jobs?state=dead");
			browser.findElement(By.name("error")).sendKeys("declined: 4111");
			browser.findElement(By.cssSelector("#filter button")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> browser.findElements(By.cssSelector("#jobs td.dead")).size() == 1);
			browser.findElement(By.id("retry-matching")).click();
			assertThat(shown(By.id("preview")).getText())
				.isEqualTo("Retry 1 dead job whose error holds 'declined: 4111'?");
			browser.findElement(By.id("confirm")).click();

			assertThat(shown(By.id("retried")).getText()).isEqualTo("Retried 1 job.");
			assertThat(dead).extracting(id -> queue.find(id).orElseThrow().state())
				.containsExactly(JobState.dead, JobState.ready, JobState.dead);
		}
	}

	@Test
	void everyMatchingJobIsCancelledThenDeletedEachAfterAPageThatSaysHowMany(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_cancel_matching",
				"jobqueue.external-kinds=render-report", "jobqueue.console.writes-enabled=true",
				"jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			List<Long> ids = List.of(queue.enqueue("render-report", new Charge("a")),
					queue.enqueue("render-report", new Charge("b")), queue.enqueue("render-report", new Charge("c")));
			long other = queue.enqueue("charge-card", new Charge("4111"),
					EnqueueOptions.defaults().delay(Duration.ofHours(1)));
			String base = base(app);

			browser.get(base + "/jobs?kind=render-report");
			browser.findElement(By.id("cancel-matching")).click();
			assertThat(shown(By.id("preview")).getText())
				.isEqualTo("Cancel 3 unfinished jobs of kind render-report?");
			assertThat(ids).extracting(id -> queue.find(id).orElseThrow().state()).containsOnly(JobState.ready);
			browser.findElement(By.id("confirm")).click();
			assertThat(shown(By.id("cancelled")).getText()).isEqualTo("Cancelled 3 jobs.");
			assertThat(ids).extracting(id -> queue.find(id).orElseThrow().state()).containsOnly(JobState.cancelled);

			browser.get(base + "/jobs?kind=render-report&state=cancelled");
			browser.findElement(By.id("delete-matching")).click();
			assertThat(shown(By.id("preview")).getText())
				.isEqualTo("Delete 3 cancelled jobs of kind render-report?");
			HeadlessChromium.screenshot(browser, "13-delete-matching-preview");
			browser.findElement(By.id("confirm")).click();
			assertThat(shown(By.id("deleted")).getText()).isEqualTo("Deleted 3 jobs.");
			assertThat(ids).allMatch(id -> queue.find(id).isEmpty());
			assertThat(queue.find(other).orElseThrow().state()).isEqualTo(JobState.ready);
			assertThat(output).contains("console: anonymous cancelled 3 unfinished jobs of kind render-report",
					"console: anonymous deleted 3 cancelled jobs of kind render-report");
		}
	}

	@Test
	void anOperatorCancelsARunningJobFromItsPage(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_cancel_running",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = queue.enqueue("export", new Charge("all"));
			Awaitility.await().atMost(Duration.ofSeconds(20))
				.until(() -> queue.find(id).orElseThrow().state() == JobState.running);

			browser.get(base(app) + "/jobs/" + id);
			browser.findElement(By.id("cancel")).click();
			HeadlessChromium.screenshot(browser, "10-running-job-cancelled");

			assertThat(queue.await(id, Duration.ofSeconds(20)).state()).isEqualTo(JobState.cancelled);
			assertThat(output).contains("console: anonymous cancelled job " + id);
		}
	}

	@Test
	void anOperatorSeesWhatIsPausedSinceWhenAndPausesAndResumesQueuesAndKinds(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_pauses",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			killThreeJobs(queue);
			String base = base(app);

			browser.get(base + "/");
			assertThat(browser.findElement(By.id("paused")).getText()).contains("queue", "default",
					queue.pausedQueues().get("default").toString());
			assertThat(browser.findElements(By.id("pause-queue-default"))).isEmpty();
			browser.findElement(By.id("resume-queue-default")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.pausedQueues().isEmpty());

			browser.get(base + "/");
			browser.findElement(By.id("pause-name")).sendKeys("charge-card");
			new Select(browser.findElement(By.id("pause-scope"))).selectByVisibleText("kind");
			browser.findElement(By.id("pause")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !queue.pausedKinds().isEmpty());
			assertThat(queue.pausedKinds()).containsOnlyKeys("charge-card");

			browser.get(base + "/");
			HeadlessChromium.screenshot(browser, "11-paused-kind");
			assertThat(browser.findElement(By.id("paused")).getText()).contains("kind", "charge-card",
					queue.pausedKinds().get("charge-card").toString());
			browser.findElement(By.id("pause-queue-default")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !queue.pausedQueues().isEmpty());
			assertThat(queue.pausedQueues()).containsOnlyKeys("default");

			browser.get(base + "/");
			browser.findElement(By.id("pause-name")).sendKeys("no such queue!");
			browser.findElement(By.id("pause")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> browser.findElement(By.tagName("main")).getText().contains("Bad request"));
			assertThat(browser.findElement(By.tagName("main")).getText()).contains("queue");
			assertThat(output).contains("console: anonymous resumed queue default",
					"console: anonymous paused kind charge-card", "console: anonymous paused queue default");
		}
	}

	@Test
	void anOperatorRunsASchedulesJobNowAndPausesAndResumesTheSchedule(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_schedules",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			queue.pause("default");
			String base = base(app);

			browser.get(base + "/schedules");
			browser.findElement(By.id("trigger-nightly-report")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> browser.findElements(By.id("explain")).size() == 1);
			HeadlessChromium.screenshot(browser, "12-schedule-run-now");
			long id = Long.parseLong(browser.getCurrentUrl().replaceAll(".*/jobs/(\\d+).*", "$1"));
			assertThat(queue.find(id).orElseThrow().kind()).isEqualTo("nightly-report");

			browser.get(base + "/schedules");
			browser.findElement(By.id("pause-nightly-report")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> status(queue, "nightly-report").paused());
			browser.get(base + "/schedules");
			assertThat(browser.findElement(By.id("schedules")).getText()).contains("paused since");
			browser.findElement(By.id("resume-nightly-report")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !status(queue, "nightly-report").paused());
			assertThat(output).contains("console: anonymous triggered schedule nightly-report as job " + id,
					"console: anonymous paused schedule nightly-report",
					"console: anonymous resumed schedule nightly-report");
		}
	}

	/** The element once the page a click led to shows it: the click may return before its navigation ends. */
	private WebElement shown(By by) {
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(by).isEmpty());
		return browser.findElement(by);
	}

	private static ScheduleStatus status(JobQueue queue, String name) {
		return queue.schedules().list().stream().filter(schedule -> schedule.name().equals(name)).findFirst()
			.orElseThrow();
	}

	@Test
	void theOverviewAndTheListsLoadThemselvesAgainUntilPausedButNotAListWithBoxesToTick() {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_refresh",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			killThreeJobs(app.getBean(JobQueue.class));
			String base = base(app);
			By refresh = By.cssSelector("meta[http-equiv=refresh]");

			browser.get(base + "/");
			assertThat(browser.findElement(refresh).getAttribute("content")).isEqualTo("10");
			browser.findElement(By.id("refresh-toggle")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browser.getCurrentUrl().endsWith("refresh=off"));
			assertThat(browser.findElements(refresh)).isEmpty();
			assertThat(browser.findElement(By.id("refresh-toggle")).getText()).isEqualTo("Refresh every 10 s");

			browser.get(base + "/jobs?kind=charge-card");
			assertThat(browser.findElement(refresh).getAttribute("content")).isEqualTo("30");
			browser.get(base + "/jobs?state=dead");
			assertThat(browser.findElements(refresh)).isEmpty();
			browser.findElement(By.id("refresh-toggle")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browser.getCurrentUrl().endsWith("refresh=on"));
			assertThat(browser.findElement(refresh).getAttribute("content")).isEqualTo("30");
		}
	}

	@Test
	void anOperatorResizesAQueueOfTheNodeServingTheConsole(CapturedOutput output) {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_resize",
				"jobqueue.console.writes-enabled=true", "jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			String base = base(app);

			browser.get(base + "/");
			WebElement size = browser.findElement(By.id("size-default"));
			assertThat(size.getAttribute("value")).isEqualTo(String.valueOf(queue.queues().concurrency().get("default")));
			size.clear();
			size.sendKeys("3");
			browser.findElement(By.id("resize-default")).click();
			Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> queue.queues().concurrency().get("default") == 3);

			browser.get(base + "/");
			assertThat(browser.findElement(By.id("size-default")).getAttribute("value")).isEqualTo("3");
			assertThat(output).contains("console: anonymous resized queue default to 3 on this node");
		}
	}

	@Test
	void aReadOnlyConsoleShowsNoButtonsAndRefusesAPost() throws Exception {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_read_only")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = killThreeJobs(queue).get(0);
			String base = base(app);

			browser.get(base + "/jobs?state=dead");
			HeadlessChromium.screenshot(browser, "6-read-only-dead-jobs");
			assertThat(browser.findElements(By.cssSelector("#jobs td.dead"))).hasSize(3);
			assertThat(browser.findElements(By.id("retry-selected"))).isEmpty();
			browser.get(base + "/jobs/" + id);
			assertThat(browser.findElements(By.tagName("button"))).isEmpty();

			HttpResponse<String> post = post(URI.create(base + "/jobs/retry"), "id=" + id);
			assertThat(post.statusCode()).isEqualTo(403);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.dead);
		}
	}

	@Test
	void theJobListPagesByItsCursorAndABadFilterIsABadRequestThatSaysWhy() throws Exception {
		try (ConfigurableApplicationContext app = start(ConsoleApplications.Plain.class, "console_pages",
				"jobqueue.external-kinds=render-report", "jobqueue.console.writes-enabled=true",
				"jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			for (int i = 0; i < 51; i++) {
				queue.enqueue("render-report", new Charge("report " + i));
			}
			String base = base(app);

			browser.get(base + "/jobs?kind=render-report");
			assertThat(browser.findElements(By.cssSelector("#jobs td.ready"))).hasSize(50);
			browser.findElement(By.id("next")).click();
			HeadlessChromium.screenshot(browser, "7-second-page");
			assertThat(browser.findElements(By.cssSelector("#jobs td.ready"))).hasSize(1);
			assertThat(browser.findElements(By.id("next"))).isEmpty();

			browser.get(base + "/jobs?state=zombie");
			assertThat(browser.findElement(By.tagName("main")).getText()).contains("Bad request",
					"state must be one of waiting, blocked, ready, running, succeeded, dead, cancelled; was 'zombie'");
			HttpResponse<String> badId = post(URI.create(base + "/jobs/retry"), "id=%3Cb%3E");
			assertThat(badId.statusCode()).isEqualTo(400);
			assertThat(badId.body()).contains("id must be a job id, was &#39;&lt;b&gt;&#39;");
		}
	}
}
