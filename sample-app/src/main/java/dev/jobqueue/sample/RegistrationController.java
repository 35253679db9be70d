package dev.jobqueue.sample;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;

/**
 * {@code POST /users} registers a user; {@code GET /jobs/{id}} shows how one of the jobs it enqueued is
 * doing.
 */
@RestController
class RegistrationController {

	private final RegistrationService registrations;

	private final JobQueue jobs;

	RegistrationController(RegistrationService registrations, JobQueue jobs) {
		this.registrations = registrations;
		this.jobs = jobs;
	}

	@PostMapping("/users")
	@ResponseStatus(HttpStatus.CREATED)
	Registration register(@RequestBody NewUser user) {
		return registrations.register(user);
	}

	@GetMapping("/jobs/{id}")
	ResponseEntity<Job> job(@PathVariable long id) {
		return ResponseEntity.of(jobs.find(id));
	}

	@ExceptionHandler(DuplicateKeyException.class)
	@ResponseStatus(HttpStatus.CONFLICT)
	String alreadyRegistered() {
		return "already registered";
	}

	record NewUser(String email, String name) {
	}
}
