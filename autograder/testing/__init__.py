"""Running a graded suite against a caged hand-in: the proxy a test calls, the pytest plugin that makes one
outcome per test, the suite collected once per grader, replayed examples, and the helpers tests import."""
