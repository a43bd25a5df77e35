package tiebreak

// directEncounter is C.07 6 within one group of tied players: the players'
// places in the separate table of the games among them, as a value that is
// higher for a better place (the number of places below and including it),
// equal for players the rule cannot separate.
func (ev *event) directEncounter(group []int) map[int]float64 {
	tiers := ev.encounterTiers(group)
	out := make(map[int]float64, len(group))
	for t, tier := range tiers {
		for _, p := range tier {
			out[p] = float64(len(tiers) - t)
		}
	}
	return out
}

// encounterTiers orders a group from the top, players sharing a tier when
// the rule leaves them equal.
func (ev *event) encounterTiers(group []int) [][]int {
	if len(group) < 2 {
		return [][]int{group}
	}
	in := make(map[int]bool, len(group))
	for _, p := range group {
		in[p] = true
	}
	// 6.1: the points each scored against the others of the group, over
	// the board (a round-robin's forfeits too); several games between the
	// same two players count as their average (6.1.2).
	known := make(map[int]float64, len(group))
	missing := make(map[int]int, len(group))
	for _, p := range group {
		pts := map[int][]int{}
		for _, r := range ev.rounds[p] {
			if r.cat.isGame() && in[r.opponent] {
				pts[r.opponent] = append(pts[r.opponent], r.points)
			}
		}
		for _, q := range group {
			if q == p {
				continue
			}
			games := pts[q]
			if len(games) == 0 {
				missing[p]++
				continue
			}
			t := 0
			for _, g := range games {
				t += g
			}
			known[p] += float64(t) / float64(len(games))
		}
	}
	everyoneMet := true
	for _, p := range group {
		if missing[p] > 0 {
			everyoneMet = false
		}
	}
	var tiers [][]int
	if everyoneMet {
		// 6.2: rank by the separate table; apply the rule again to each
		// smaller group still equal.
		sorted := append([]int(nil), group...)
		// group arrives in pairing-number order; a stable sort keeps it
		// for equal scores.
		stableSortDesc(sorted, known)
		for i := 0; i < len(sorted); {
			j := i + 1
			for j < len(sorted) && known[sorted[j]] == known[sorted[i]] {
				j++
			}
			tiers = append(tiers, ev.again(sorted[i:j], len(group))...)
			i = j
		}
		return tiers
	}
	// 6.3: when not all have met, a player is placed above the rest only
	// if the least it could have scored beats the most any other could
	// have, whatever the games not played would have given; place by place
	// until that fails, then the rule applies again to those left.
	win := float64(ev.scoring.Win)
	loss := float64(ev.scoring.Loss)
	left := append([]int(nil), group...)
	for len(left) > 1 {
		leader := -1
		for _, c := range left {
			lowest := known[c] + loss*float64(missing[c])
			ok := true
			for _, o := range left {
				if o != c && lowest <= known[o]+win*float64(missing[o]) {
					ok = false
					break
				}
			}
			if ok {
				leader = c
				break
			}
		}
		if leader < 0 {
			break
		}
		tiers = append(tiers, []int{leader})
		for i, p := range left {
			if p == leader {
				left = append(left[:i:i], left[i+1:]...)
				break
			}
		}
	}
	return append(tiers, ev.again(left, len(group))...)
}

// again reapplies the rule to a smaller tied group; a group as large as
// the one it came from stays tied (the rule cannot separate it).
func (ev *event) again(tied []int, from int) [][]int {
	if len(tied) < 2 || len(tied) == from {
		return [][]int{append([]int(nil), tied...)}
	}
	return ev.encounterTiers(append([]int(nil), tied...))
}

// stableSortDesc sorts s by key, highest first, keeping the order of equals.
func stableSortDesc(s []int, key map[int]float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && key[s[j]] > key[s[j-1]]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
