/*
 * test_cli.c - the stages' option helpers: values in range are parsed,
 * a bad value ends the process with exit status 2 (a usage error).
 */
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/log.h"
#include "testutil.h"

/* Exit status of a child that parses @arg as a size (@size) or as an
 * integer in [0, 20]. */
static int status_of(int size, const char *arg)
{
	const pid_t pid = fork();
	if (pid == 0) {
		if (size)
			(void)cli_parse_size("--x", arg);
		else
			(void)cli_parse_int("--x", arg, 0, 20);
		_exit(0);
	}
	int st = -1;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	log_set_level(LOG_SILENT);
	CHECK(cli_parse_size("--x", "4K") == 4096);
	CHECK(cli_parse_size("--x", "3G") == 3ull << 30);
	CHECK(cli_parse_size("--x", "512") == 512);
	CHECK(cli_parse_int("--x", "17", 0, 20) == 17);
	CHECK(status_of(0, "20") == 0);
	CHECK(status_of(0, "21") == EXIT_FAILED);
	CHECK(status_of(0, "-1") == EXIT_FAILED);
	CHECK(status_of(0, "7x") == EXIT_FAILED);
	CHECK(status_of(1, "1T") == EXIT_FAILED);
	CHECK(status_of(1, "-4K") == EXIT_FAILED);
	CHECK(status_of(1, "99999999999G") == EXIT_FAILED);
	return test_finish("test_cli");
}
