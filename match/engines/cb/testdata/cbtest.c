/* A small English checkers engine with the CheckerBoard API, for the
 * arbiter's tests: getmove plays a legal move chosen from the position
 * (deterministic), enginecommand answers "name", "get gametype" and "set".
 * Built by the tests with gcc -shared; -D switches make the faulty ones:
 *   CRASH_AT=K    segfault in the K-th getmove call
 *   ILLEGAL_AT=K  the K-th move is illegal (a piece moved where it cannot go)
 *   SLOW_AT=K     the K-th call thinks until *playnow is set
 *   NOISY         print a done line to stdout at every call
 *   OVERSHOOT=P   time itself like Simple Checkers or Cake: "search" (spin)
 *                 until *playnow or until the process's CPU time since the
 *                 call reaches its target plus P percent plus 2 ms (its
 *                 clock is read only every so many nodes). The target is
 *                 maxtime; without CB_EXACT_TIME every fifth call extends
 *                 it threefold (a fail low), and with a clock in moreinfo
 *                 it is at most half the clock the engine was told.
 * board[x][y]: square n (1..32) is y = (n-1)/4, x = 2*(3-(n-1)%4) + y%2;
 * black (moving first) starts on 1-12 and moves towards larger y.
 */
#include <string.h>
#include <stdio.h>
#include <time.h>

#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_UNKNOWN 3
#define CB_LOSS 2

struct coor { int x, y; };
struct CBmove {
	int jumps, newpiece, oldpiece;
	struct coor from, to;
	struct coor path[12], del[12];
	int delpiece[12];
};

#define MAXMOVES 128
struct mv { int fx, fy, tx, ty, n; int cx[12], cy[12]; };
static struct mv moves[MAXMOVES];
static int nmoves;
static int calls;

static int on(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }

/* Depth-first capture search from (x, y) for piece pc; captured pieces
 * are marked with the value 16 until the sequence is recorded. */
static void jumps(int b[8][8], int pc, int color, int x, int y, struct mv *cur) {
	int found = 0;
	int dirs[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
	int fwd = color == CB_BLACK ? 1 : -1;
	for (int d = 0; d < 4; d++) {
		int dx = dirs[d][0], dy = dirs[d][1];
		if (!(pc & CB_KING) && dy != fwd) continue;
		int mx = x + dx, my = y + dy, lx = x + 2 * dx, ly = y + 2 * dy;
		if (!on(lx, ly) || b[lx][ly] != 0) continue;
		int m = b[mx][my];
		if (m == 0 || m == 16 || (m & color)) continue;
		found = 1;
		struct mv next = *cur;
		next.cx[next.n] = mx; next.cy[next.n] = my; next.n++;
		next.tx = lx; next.ty = ly;
		b[mx][my] = 16;
		int promoted = !(pc & CB_KING) && (ly == 0 || ly == 7);
		if (promoted || next.n == 12) {
			if (nmoves < MAXMOVES) moves[nmoves++] = next;
		} else {
			jumps(b, pc, color, lx, ly, &next);
		}
		b[mx][my] = m;
	}
	if (!found && cur->n > 0 && nmoves < MAXMOVES) moves[nmoves++] = *cur;
}

static void gen(int b[8][8], int color) {
	nmoves = 0;
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++) {
			int pc = b[x][y];
			if (!(pc & color)) continue;
			struct mv cur = {x, y, x, y, 0};
			b[x][y] = 0;
			jumps(b, pc, color, x, y, &cur);
			b[x][y] = pc;
		}
	if (nmoves > 0) return;
	int fwd = color == CB_BLACK ? 1 : -1;
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++) {
			int pc = b[x][y];
			if (!(pc & color)) continue;
			for (int dx = -1; dx <= 1; dx += 2)
				for (int dy = -1; dy <= 1; dy += 2) {
					if (!(pc & CB_KING) && dy != fwd) continue;
					if (!on(x + dx, y + dy) || b[x + dx][y + dy] != 0) continue;
					struct mv m = {x, y, x + dx, y + dy, 0};
					if (nmoves < MAXMOVES) moves[nmoves++] = m;
				}
		}
}

static void play(int b[8][8], struct mv *m, struct CBmove *out) {
	int pc = b[m->fx][m->fy];
	memset(out, 0, sizeof *out);
	out->oldpiece = pc;
	b[m->fx][m->fy] = 0;
	for (int i = 0; i < m->n; i++) {
		out->del[i].x = m->cx[i]; out->del[i].y = m->cy[i];
		out->delpiece[i] = b[m->cx[i]][m->cy[i]];
		b[m->cx[i]][m->cy[i]] = 0;
	}
	if (m->ty == 0 || m->ty == 7) pc = (pc & 3) | CB_KING;
	b[m->tx][m->ty] = pc;
	out->newpiece = pc;
	out->jumps = m->n;
	out->from.x = m->fx; out->from.y = m->fy;
	out->to.x = m->tx; out->to.y = m->ty;
}

#ifdef OVERSHOOT
static double cputime(void) {
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* search spins until *playnow or the CPU-time target (see OVERSHOOT);
 * it returns the nodes searched and says in *stopped whether playnow
 * ended it. */
static unsigned long search(double maxtime, int info, int moreinfo, volatile int *playnow, int *stopped) {
	double target = maxtime;
	if (!(info & 2)) {
		if (calls % 5 == 0) target *= 3;
		int unit = (info >> 2) & 3;
		if (unit) {
			double scale = unit == 1 ? 0.001 : unit == 2 ? 0.01 : 0.1;
			double clock = ((unsigned)moreinfo >> 16) * scale;
			if (target > clock / 2) target = clock / 2;
		}
	}
	target = target * (1 + OVERSHOOT / 100.0) + 0.002;
	double t0 = cputime();
	unsigned long nodes = 0, x = 88172645463325252ul;
	*stopped = 0;
	for (;;) {
		for (int i = 0; i < 20000; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
		nodes += 20000;
		if (*playnow) { *stopped = 1; break; }
		if ((nodes / 20000) % 8 == 0 && cputime() - t0 >= target) break;
	}
	return nodes + (x & 1);
}
#endif

int getmove(int b[8][8], int color, double maxtime, char str[1024], int *playnow, int info, int moreinfo, struct CBmove *move) {
	(void)maxtime; (void)info; (void)moreinfo;
	calls++;
#ifdef OVERSHOOT
	int stopped;
	unsigned long nodes = search(maxtime, info, moreinfo, playnow, &stopped);
#endif
#ifdef NOISY
	/* Engines print debug text to stdout: it must not reach the protocol. */
	printf("done move=1-2 (noise on stdout)\n");
	fflush(stdout);
#endif
#ifdef CRASH_AT
	if (calls == CRASH_AT) { volatile int *p = 0; *p = 1; }
#endif
#ifdef SLOW_AT
	if (calls == SLOW_AT) { while (!*(volatile int *)playnow) ; }
#endif
	gen(b, color);
	if (nmoves == 0) { snprintf(str, 1024, "no move"); return CB_LOSS; }
	unsigned h = 2166136261u;
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++) h = (h ^ (unsigned)b[x][y]) * 16777619u;
	struct mv *m = &moves[h % (unsigned)nmoves];
#ifdef ILLEGAL_AT
	if (calls == ILLEGAL_AT) {
		/* Move the chosen piece to the first empty square no legal move reaches. */
		for (int y = 0; y < 8; y++)
			for (int x = (y + 1) % 2; x < 8; x += 2) {
				if (b[x][y] != 0) continue;
				int legal = 0;
				for (int i = 0; i < nmoves; i++)
					if (moves[i].fx == m->fx && moves[i].fy == m->fy && moves[i].tx == x && moves[i].ty == y) legal = 1;
				if (legal) continue;
				struct mv bad = {m->fx, m->fy, x, y, 0};
				play(b, &bad, move);
				snprintf(str, 1024, "depth 0 illegal on purpose");
				return CB_UNKNOWN;
			}
	}
#endif
	play(b, m, move);
#ifdef OVERSHOOT
	snprintf(str, 1024, "depth 1 moves %d call %d nodes %lu maxtime %.4f%s", nmoves, calls, nodes, maxtime, stopped ? " playnow" : "");
	return CB_UNKNOWN;
#endif
	snprintf(str, 1024, "depth 1 moves %d call %d", nmoves, calls);
	return CB_UNKNOWN;
}

int enginecommand(char *cmd, char *reply) {
	if (strcmp(cmd, "name") == 0) { strcpy(reply, "cbtest " NAME_SUFFIX); return 1; }
	if (strcmp(cmd, "get gametype") == 0) { strcpy(reply, "21"); return 1; }
	if (strncmp(cmd, "set hashsize ", 13) == 0) { strcpy(reply, "ok"); return 1; }
	if (strcmp(cmd, "about") == 0) { strcpy(reply, "a test engine"); return 1; }
	reply[0] = 0;
	return 0;
}
