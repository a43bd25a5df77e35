package rules

// Perft counts the leaf nodes at exactly depth plies below p. With keepPaths
// every distinct capture path counts as a move; otherwise moves are counted
// by identity (from, to, captured set). Perft of depth 0 is 1 and of a
// negative depth 0.
func Perft(p Position, depth int, keepPaths bool) uint64 {
	if depth < 0 {
		return 0 // the reference recursion would otherwise never reach depth 0
	}
	if fastPerftHook != nil {
		if n, ok := fastPerftHook(&p, depth, keepPaths); ok {
			return n
		}
	}
	return referencePerft(p, depth, keepPaths)
}

// fastPerftHook is set by the bitboard generator.
var fastPerftHook func(p *Position, depth int, keepPaths bool) (uint64, bool)

func referencePerft(p Position, depth int, keepPaths bool) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.referenceMoves(keepPaths)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += referencePerft(p.Play(m), depth-1, keepPaths)
	}
	return n
}
