package rules

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// PerftOptions make a perft run faster without changing its count: a
// transposition table, so that a position reached again by another move
// order at the same depth is counted once and looked up after, and worker
// goroutines that share the subtrees. Deep English counts (depth 15 and
// beyond) are out of reach without the table: the tree grows about 4.5x a
// ply, while the number of distinct positions grows far slower.
type PerftOptions struct {
	// HashBytes is the transposition table's size in bytes (rounded down to
	// a power of two entries); 0 runs without a table.
	HashBytes int
	// Table, when set, is used instead of a new table of HashBytes, so that
	// what one call learnt serves the next (the depths of one run, the root
	// moves of a divide).
	Table *PerftTable
	// Workers is the number of goroutines (at most 1024); 0 means one per CPU.
	Workers int
}

// PerftWith is Perft with o. The count is exactly that of Perft: a table
// entry holds the whole position, so a hash collision is a miss, not a
// wrong count, and a check word over the position's hash and the count
// refuses an entry torn by two workers storing at once. A count that does
// not fit in 64 bits is an error wrapping ErrPerftOverflow, naming the depth.
func PerftWith(p Position, depth int, keepPaths bool, o PerftOptions) (uint64, error) {
	return perftResult(perftWith(p, depth, keepPaths, o), depth)
}

// perftWith is PerftWith with a saturated count for an overflow.
func perftWith(p Position, depth int, keepPaths bool, o PerftOptions) uint64 {
	if depth < 0 {
		return 0
	}
	// The split below keeps 16 subtrees per worker in memory: bound it.
	workers := min(o.Workers, maxPerftWorkers)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	geo := bbGeoFor(p.v)
	if depth > maxFastPerftDepth || depth < 4 || p.v.p.BackRowWins {
		// (Breakthrough's ended positions are Perft's business: the
		// table search does not know them.)
		// An absurd depth, or too small to pay for the set-up.
		return Perft(p, depth, keepPaths)
	}
	if geo == nil {
		return referencePerftParallel(p, depth, keepPaths, workers)
	}
	tt := o.Table
	if tt == nil && o.HashBytes > 0 {
		tt = NewPerftTable(o.HashBytes)
	}
	tt.use(p.v, keepPaths)
	own, opp, kings := geo.sides(&p)
	white := p.turn == White

	// Split the tree a few plies down into enough subtrees to keep every
	// worker busy to the end (subtrees differ a lot in size), but leave
	// each one at least three plies so that the table still pays.
	split := &bbGen{}
	split.reset(p.v, geo, keepPaths)
	items := []perftItem{{own, opp, kings, white}}
	rest := depth
	for len(items) < 16*workers && rest > 5 {
		var next []perftItem
		for _, it := range items {
			for _, m := range split.gen(0, it.own, it.opp, it.kings, it.white) {
				next = append(next, perftItem{it.opp &^ m.cap, it.own ^ m.ft, (it.kings &^ m.cap) ^ m.kd, !it.white})
			}
		}
		items, rest = next, rest-1
	}

	if tt != nil && len(tt.e) == 0 {
		tt = nil
	}
	return share(len(items), workers, func() func(i int) uint64 {
		g := &bbGen{}
		g.reset(p.v, geo, keepPaths)
		g.stack = make([][]bmove, rest+1)
		for i := range g.stack {
			g.stack[i] = make([]bmove, 0, 128)
		}
		g.tt = tt
		return func(i int) uint64 {
			it := items[i]
			return g.hashedPerft(it.own, it.opp, it.kings, it.white, rest, 0)
		}
	})
}

// referencePerftParallel shares the root moves of a board without
// bitboards (12x12) among workers; the reference generator has no table.
func referencePerftParallel(p Position, depth int, keepPaths bool, workers int) uint64 {
	moves := p.referenceMoves(keepPaths)
	return share(len(moves), workers, func() func(i int) uint64 {
		return func(i int) uint64 { return referencePerft(p.Play(moves[i]), depth-1, keepPaths) }
	})
}

// share sums count(i) for i in [0, n) on up to workers goroutines, each
// with the count function newWorker gives it (its own search state), the
// next i going to whichever is free first. The sum saturates (addCount).
func share(n, workers int, newWorker func() func(i int) uint64) uint64 {
	var mu sync.Mutex
	var total uint64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			count := newWorker()
			var sum uint64
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				sum = addCount(sum, count(i))
			}
			mu.Lock()
			total = addCount(total, sum)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

// maxPerftWorkers bounds PerftOptions.Workers.
const maxPerftWorkers = 1024

// perftItem is one subtree of a split perft.
type perftItem struct {
	own, opp, kings uint64
	white           bool
}

// hashedPerft is perft with the table (when there is one) at every node
// three plies or more above the leaves; below that a lookup costs more than
// the search it saves.
func (g *bbGen) hashedPerft(own, opp, kings uint64, white bool, depth, ply int) uint64 {
	if depth < 3 || g.tt == nil {
		return g.perft(own, opp, kings, white, depth, ply)
	}
	meta := uint64(depth) << 1
	if white {
		meta |= 1
	}
	if n, ok := g.tt.probe(own, opp, kings, meta); ok {
		return n
	}
	var n uint64
	ms := g.gen(ply, own, opp, kings, white)
	for i := range ms {
		m := &ms[i]
		n = addCount(n, g.hashedPerft(opp&^m.cap, own^m.ft, (kings&^m.cap)^m.kd, !white, depth-1, ply+1))
	}
	g.tt.store(own, opp, kings, meta, n)
	return n
}

// PerftTable is a transposition table for PerftWith, shared lock-free by
// its workers: every word is read and written atomically, and an entry
// torn by two goroutines storing at once fails its check word. It may be
// reused across calls; a call under another variant or count mode clears
// it first. Not for concurrent PerftWith calls.
type PerftTable struct {
	e    []perftEntry
	mask uint64

	variant *Variant
	keep    bool
}

type perftEntry struct {
	own, opp, kings, meta, count, check atomic.Uint64
}

// NewPerftTable returns a table of at most size bytes (at least one bucket).
func NewPerftTable(size int) *PerftTable {
	const entry = 48 // bytes in a perftEntry
	n := uint64(2)
	for n*2*entry <= uint64(max(size, 0)) {
		n *= 2
	}
	return &PerftTable{e: make([]perftEntry, n), mask: n - 1}
}

// use binds t to a variant and count mode, clearing entries of another.
// Entries are keyed by the variant's bitboard layout, and keep and unique
// counts differ.
func (t *PerftTable) use(v *Variant, keep bool) {
	if t == nil || t.variant == v && t.keep == keep {
		return
	}
	if t.variant != nil {
		clear(t.e)
	}
	t.variant, t.keep = v, keep
}

// mix64 is the finalizer of SplitMix64: every input bit moves every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func perftKey(own, opp, kings, meta uint64) uint64 {
	return mix64(own ^ mix64(opp^bits.RotateLeft64(kings, 21)^mix64(meta+0x9e3779b97f4a7c15)))
}

func perftCheck(key, count uint64) uint64 {
	return mix64(key ^ bits.RotateLeft64(count, 32) ^ 0x2545f4914f6cdd1d)
}

// Entries come in buckets of two: the first keeps the deeper subtree (the
// more work saved), the second takes whatever comes, so that the many
// shallow entries still find a place without pushing out the few deep ones.
func (t *PerftTable) probe(own, opp, kings, meta uint64) (uint64, bool) {
	key := perftKey(own, opp, kings, meta)
	b := (key & t.mask) &^ 1
	for i := b; i < b+2; i++ {
		e := &t.e[i]
		if e.own.Load() != own || e.opp.Load() != opp || e.kings.Load() != kings || e.meta.Load() != meta {
			continue
		}
		// The check ties the count to this position's key: a count torn
		// from a concurrent store of another position fails it.
		n := e.count.Load()
		if e.check.Load() != perftCheck(key, n) {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

func (t *PerftTable) store(own, opp, kings, meta, count uint64) {
	key := perftKey(own, opp, kings, meta)
	b := (key & t.mask) &^ 1
	e := &t.e[b]
	if e.meta.Load()>>1 > meta>>1 {
		e = &t.e[b+1] // the first slot holds a deeper subtree
	}
	e.check.Store(0) // invalid while being written (a real check is 0 once in 2^64)
	e.own.Store(own)
	e.opp.Store(opp)
	e.kings.Store(kings)
	e.meta.Store(meta)
	e.count.Store(count)
	e.check.Store(perftCheck(key, count))
}
