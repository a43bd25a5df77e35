/* The floor of a move's CPU: a bare C ping-pong of one Hub-sized line
 * between two processes over two pipes (the parent writes a line and reads
 * it back, the child echoes), N round trips. It prints the CPU time
 * (user + system) of both processes together per round trip, in ns:
 *   pingpong N
 * Built by match's BenchmarkMatchEndToEnd with the C compiler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static long long ns(struct timeval tv) { return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int down[2], up[2];
	if (pipe(down) || pipe(up)) return 1;
	static const char line[] = "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n";
	char buf[4096];
	pid_t pid = fork();
	if (pid < 0) return 1;
	if (pid == 0) {
		close(down[1]); close(up[0]);
		for (;;) {
			ssize_t r = read(down[0], buf, sizeof buf);
			if (r <= 0) _exit(0);
			if (write(up[1], buf, r) != r) _exit(1);
		}
	}
	close(down[0]); close(up[1]);
	size_t len = sizeof line - 1;
	for (long i = 0; i < n; i++) {
		if (write(down[1], line, len) != (ssize_t)len) return 1;
		size_t got = 0;
		while (got < len) {
			ssize_t r = read(up[0], buf + got, sizeof buf - got);
			if (r <= 0) return 1;
			got += r;
		}
	}
	close(down[1]);
	waitpid(pid, NULL, 0);
	struct rusage self, child;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &child);
	long long cpu = ns(self.ru_utime) + ns(self.ru_stime) + ns(child.ru_utime) + ns(child.ru_stime);
	printf("%lld\n", cpu / n);
	return 0;
}
