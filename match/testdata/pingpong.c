/* The floor of a move's CPU: a bare C ping-pong of one Hub-sized line
 * between processes over pipes (the parent writes a line and reads it
 * back, a child echoes), N round trips. It prints the CPU time (user +
 * system) of all the processes together per round trip, in ns:
 *   pingpong N [CHILDREN]
 * With CHILDREN 2 the parent alternates between two children, one line
 * each in turn, as an arbiter does between a game's two engines (default
 * 1: the plain two-process ping-pong).
 * Built by match's BenchmarkMatchEndToEnd with the C compiler. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static long long ns(struct timeval tv) { return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int kids = argc > 2 ? atoi(argv[2]) : 1;
	if (kids < 1 || kids > 2) return 2;
	int down[2][2], up[2][2];
	static const char line[] = "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n";
	char buf[4096];
	pid_t pids[2];
	for (int k = 0; k < kids; k++) {
		if (pipe(down[k]) || pipe(up[k])) return 1;
		pids[k] = fork();
		if (pids[k] < 0) return 1;
		if (pids[k] == 0) {
			for (;;) {
				ssize_t r = read(down[k][0], buf, sizeof buf);
				if (r <= 0) _exit(0);
				if (write(up[k][1], buf, r) != r) _exit(1);
			}
		}
		close(down[k][0]); close(up[k][1]);
	}
	size_t len = sizeof line - 1;
	for (long i = 0; i < n; i++) {
		int k = i % kids;
		if (write(down[k][1], line, len) != (ssize_t)len) return 1;
		size_t got = 0;
		while (got < len) {
			ssize_t r = read(up[k][0], buf + got, sizeof buf - got);
			if (r <= 0) return 1;
			got += r;
		}
	}
	/* The second child inherited the first one's write end: end both
	 * by signal rather than by end of input. */
	for (int k = 0; k < kids; k++) {
		close(down[k][1]);
		kill(pids[k], SIGTERM);
		waitpid(pids[k], NULL, 0);
	}
	struct rusage self, child;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &child);
	long long cpu = ns(self.ru_utime) + ns(self.ru_stime) + ns(child.ru_utime) + ns(child.ru_stime);
	printf("%lld\n", cpu / n);
	return 0;
}
