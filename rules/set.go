package rules

import (
	"iter"
	"math/bits"
)

// Set is a set of squares (bit sq-1 stands for square sq). It is a value type:
// compare with ==, copy freely.
type Set [2]uint64

// SetOf returns the set holding the given squares.
func SetOf(sqs ...Square) Set {
	var s Set
	for _, sq := range sqs {
		s = s.With(sq)
	}
	return s
}

// Has reports whether sq is in s.
func (s Set) Has(sq Square) bool {
	i := uint(sq) - 1
	return s[i>>6]&(1<<(i&63)) != 0
}

// With returns s plus sq.
func (s Set) With(sq Square) Set {
	i := uint(sq) - 1
	s[i>>6] |= 1 << (i & 63)
	return s
}

// Without returns s minus sq.
func (s Set) Without(sq Square) Set {
	i := uint(sq) - 1
	s[i>>6] &^= 1 << (i & 63)
	return s
}

// Union returns s ∪ t.
func (s Set) Union(t Set) Set { return Set{s[0] | t[0], s[1] | t[1]} }

// Intersect returns s ∩ t.
func (s Set) Intersect(t Set) Set { return Set{s[0] & t[0], s[1] & t[1]} }

// Minus returns s \ t.
func (s Set) Minus(t Set) Set { return Set{s[0] &^ t[0], s[1] &^ t[1]} }

// Len is the number of squares in s.
func (s Set) Len() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// Empty reports whether s has no squares.
func (s Set) Empty() bool { return s[0]|s[1] == 0 }

// All iterates the squares of s in increasing order.
func (s Set) All() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for w := 0; w < 2; w++ {
			for b := s[w]; b != 0; b &= b - 1 {
				if !yield(Square(w*64 + bits.TrailingZeros64(b) + 1)) {
					return
				}
			}
		}
	}
}

// Squares returns the squares of s in increasing order.
func (s Set) Squares() []Square {
	out := make([]Square, 0, s.Len())
	for sq := range s.All() {
		out = append(out, sq)
	}
	return out
}
