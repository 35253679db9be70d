package dev.jobqueue.test.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.stereotype.Component;

import dev.jobqueue.JobQueue;
import dev.jobqueue.spring.JobHandler;

/**
 * The handlers: {@code send-mail} "sends" (notes the address, fails for a bouncing one, retried after an
 * hour), {@code newsletter} fans out to {@code send-mail} jobs, {@code echo} enqueues itself for ever.
 */
@Component
public class MailJobs {

	public static final String BOUNCING = "bounce@example.com";

	private final JobQueue jobs;

	private final List<String> sent = new CopyOnWriteArrayList<>();

	public MailJobs(JobQueue jobs) {
		this.jobs = jobs;
	}

	@JobHandler(kind = "send-mail", maxAttempts = 2, initialBackoff = "1h")
	String send(SendMail mail) {
		if (mail.to().equals(BOUNCING)) {
			throw new IllegalStateException("mailbox " + mail.to() + " bounced");
		}
		sent.add(mail.to());
		return "sent to " + mail.to();
	}

	@JobHandler(kind = "newsletter")
	int newsletter(Newsletter newsletter) {
		newsletter.readers().forEach(reader -> jobs.enqueue("send-mail", new SendMail(reader, newsletter.subject())));
		return newsletter.readers().size();
	}

	@JobHandler(kind = "echo")
	void echo(String text) {
		jobs.enqueue("echo", text);
	}

	public List<String> sent() {
		return sent;
	}
}
