package rules

// HasBitboards tells the external tests whether v's positions take the
// bitboard generator's shortcuts (Find without generating): boards whose
// squares fit in 64 bits with the layout's padding.
func HasBitboards(v *Variant) bool { return geoOf(v) != nil }
