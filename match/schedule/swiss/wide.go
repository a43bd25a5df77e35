package swiss

import "math/bits"

// The edge weights of the Dutch pairing pack twenty-odd criteria (C.04.3
// C.5-C.21 and the completion requirement) into one number compared
// lexicographically, so they need more than 64 bits in a large field. They
// are fixed-size little-endian multiword unsigned integers: every number of
// one matching has the same word count, so the arithmetic is a few loops
// over words with no allocation (math/big would allocate in the hot loop).

// wAdd sets d = a + b (d may alias a or b).
func wAdd(d, a, b []uint64) {
	var c uint64
	for i := range d {
		d[i], c = bits.Add64(a[i], b[i], c)
	}
}

// wSub sets d = a - b (d may alias a or b); the matching never lets a
// dual or a slack go negative, so a borrow out of the top word is a bug.
func wSub(d, a, b []uint64) {
	var c uint64
	for i := range d {
		d[i], c = bits.Sub64(a[i], b[i], c)
	}
}

// wCmp compares a and b: -1, 0 or +1.
func wCmp(a, b []uint64) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// wZero reports whether a is zero.
func wZero(a []uint64) bool {
	for _, x := range a {
		if x != 0 {
			return false
		}
	}
	return true
}

// wShr1 sets d = a >> 1.
func wShr1(d, a []uint64) {
	n := len(a)
	for i := 0; i < n; i++ {
		x := a[i] >> 1
		if i+1 < n {
			x |= a[i+1] << 63
		}
		d[i] = x
	}
}

// wShl1 sets d = a << 1.
func wShl1(d, a []uint64) {
	for i := len(a) - 1; i >= 0; i-- {
		x := a[i] << 1
		if i > 0 {
			x |= a[i-1] >> 63
		}
		d[i] = x
	}
}

// wAddAt adds v << pos to d (v < 2^63 so that the carry is simple).
func wAddAt(d []uint64, pos int, v uint64) {
	if v == 0 {
		return
	}
	w, s := pos/64, uint(pos%64)
	lo := v << s
	var hi uint64
	if s > 0 {
		hi = v >> (64 - s)
	}
	var c uint64
	d[w], c = bits.Add64(d[w], lo, 0)
	for i := w + 1; i < len(d) && (c != 0 || hi != 0); i++ {
		d[i], c = bits.Add64(d[i], hi, c)
		hi = 0
	}
}

// wSubAt subtracts v << pos from d.
func wSubAt(d []uint64, pos int, v uint64) {
	if v == 0 {
		return
	}
	w, s := pos/64, uint(pos%64)
	lo := v << s
	var hi uint64
	if s > 0 {
		hi = v >> (64 - s)
	}
	var c uint64
	d[w], c = bits.Sub64(d[w], lo, 0)
	for i := w + 1; i < len(d) && (c != 0 || hi != 0); i++ {
		d[i], c = bits.Sub64(d[i], hi, c)
		hi = 0
	}
}

// wClear sets d = 0.
func wClear(d []uint64) {
	for i := range d {
		d[i] = 0
	}
}

// wSlack sets d = a + b - c in one pass over the words (d may alias any of
// them) and reports whether the result is zero: the slack of an edge is
// the solver's most frequent computation.
func wSlack(d, a, b, c []uint64) bool {
	var ca, cs, or uint64
	_ = a[len(d)-1]
	_ = b[len(d)-1]
	_ = c[len(d)-1]
	for i := range d {
		var s uint64
		s, ca = bits.Add64(a[i], b[i], ca)
		s, cs = bits.Sub64(s, c[i], cs)
		d[i] = s
		or |= s
	}
	return or == 0
}

// wSumIs reports whether a + b == c. It stops at the first word that
// differs, which is nearly always the lowest one: most edges a scan looks
// at only need to be known not tight.
func wSumIs(a, b, c []uint64) bool {
	var ca uint64
	_ = a[len(c)-1]
	_ = b[len(c)-1]
	for i := range c {
		var s uint64
		s, ca = bits.Add64(a[i], b[i], ca)
		if s != c[i] {
			return false
		}
	}
	return true
}
