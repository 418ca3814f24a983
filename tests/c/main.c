/*
 * Runner of the libqless C suites. Exits non-zero when any assertion failed
 * (CU_basic_run_tests() itself reports success regardless).
 */
#include <stdlib.h>
#include <CUnit/Basic.h>
#include "helper.h"

void th_close_raw(void);

static int suite_init(void) { return 0; }
static int suite_clean(void) { return 0; }

#define SUITE(name, tests) { name, suite_init, suite_clean, th_setup, th_teardown, tests }

int main(int argc, char **argv)
{
	CU_SuiteInfo suites[] = {
		SUITE("client", client_tests),
		SUITE("queue", queue_tests),
		SUITE("counts", counts_tests),
		SUITE("lifetime", lifetime_tests),
		SUITE("job", job_tests),
		SUITE("errors", error_tests),
		SUITE("recur", recur_tests),
		SUITE("worker", worker_tests),
		SUITE("engine", engine_tests),
		SUITE("engine_tree", engine_tree_tests),
		SUITE("events", event_tests),
		SUITE("conn", conn_tests),
		SUITE("namespace", namespace_tests),
		SUITE("restart", restart_tests),
		SUITE("validation", validation_tests),
		SUITE("heartbeater", heartbeater_tests),
		SUITE("server", server_tests),
		SUITE("unique", unique_tests),
		/* no server: they run in c.when without the fixture (WHN-1) */
		{ "when", suite_init, suite_clean, NULL, NULL, when_tests },
		{ "cron", suite_init, suite_clean, NULL, NULL, cron_tests },
		SUITE("schedule", schedule_tests),
		SUITE("recur_cron", recur_cron_tests),
		SUITE("schedule_entries", schedule_entry_tests),
		SUITE("schedule_text", schedule_text_tests),
		SUITE("tree", tree_tests),
		SUITE("tree_args", tree_arg_tests),
		SUITE("tree_ports", tree_port_tests),
		SUITE("tree_typed", tree_typed_tests),
		CU_SUITE_INFO_NULL,
	};
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "register: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_ErrorCode rc;
	if (argc > 1) {
		/* ./qless_c_tests SUITE [TEST]: run one suite or one test. */
		CU_pSuite s = CU_get_suite(argv[1]);
		if (!s) {
			fprintf(stderr, "no suite %s\n", argv[1]);
			CU_cleanup_registry();
			return 2;
		}
		if (argc > 2) {
			CU_pTest t = CU_get_test(s, argv[2]);
			if (!t) {
				fprintf(stderr, "no test %s in %s\n", argv[2], argv[1]);
				CU_cleanup_registry();
				return 2;
			}
			rc = CU_basic_run_test(s, t);
		} else {
			rc = CU_basic_run_suite(s);
		}
	} else {
		rc = CU_basic_run_tests();
	}
	unsigned int failures = CU_get_number_of_failures();
	unsigned int run = CU_get_number_of_tests_run();
	unsigned int asserts = CU_get_number_of_asserts();
	printf("\n");
	CU_cleanup_registry();
	th_close_raw();
	fprintf(stderr, "qless C tests: %u tests, %u assertions, %u failures, %d tests leaking handles\n",
	        run, asserts, failures, th_handle_leaks);
	if (rc != CUE_SUCCESS || failures != 0 || run == 0 || th_handle_leaks != 0)
		return 1;
	return 0;
}
