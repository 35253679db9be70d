package dev.jobqueue.sample;

/** What registering a user answers: the user's id and the ids of the jobs enqueued for them. */
record Registration(String userId, long welcomeEmailJob, long signupReportJob, long signupSummaryJob) {
}
