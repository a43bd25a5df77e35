package director

// bergerFIDE is round n (1-based) of the FIDE Berger tables for count
// players (FIDE Handbook C.05, Annex 1: "Berger Tables for Round-Robin
// Tournaments"), the tables directors print and players look up: boards
// as [White, Black] pairing numbers, 0-based, in board order, and the
// player who meets the highest number when count is odd ("the highest
// number counts as a bye"), -1 when none. A cycle has count-1 rounds
// (count rounds when count is odd); the later cycles repeat the first with
// the colours reversed (the Annex's double round-robin; its advice to swap
// the first cycle's last two rounds is not applied).
//
// The tables' rule, for m players (count rounded up to even) and round r
// of the cycle: m meets the player i with 2i ≡ r+1 (mod m-1), with White
// in odd rounds and Black in even ones; the other boards follow as i+k
// (White) against i-k (Black), k = 1 … m/2-1, counted round 1 … m-1. For
// six players that gives 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 /
// 6-5 1-4 2-3 / 3-6 4-2 5-1, the Annex's table for 5 or 6 players.
func bergerFIDE(count, n int) (boards [][2]int, bye int) {
	m := count + count%2
	per := m - 1
	cycle, r := (n-1)/per, (n-1)%per+1
	opp := 0
	for i := 1; i <= per; i++ {
		if (2*i-(r+1))%per == 0 {
			opp = i
			break
		}
	}
	bye = -1
	add := func(w, b int) { // 1-based numbers
		if cycle%2 == 1 {
			w, b = b, w
		}
		switch {
		case w > count:
			bye = b - 1
		case b > count:
			bye = w - 1
		default:
			boards = append(boards, [2]int{w - 1, b - 1})
		}
	}
	if r%2 == 1 {
		add(opp, m)
	} else {
		add(m, opp)
	}
	for k := 1; k < m/2; k++ {
		add((opp-1+k)%per+1, (opp-1-k+per)%per+1)
	}
	return boards, bye
}
