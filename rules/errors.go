package rules

import "errors"

// Sentinel errors, wrapped with context by the functions that return them.
var (
	// ErrSyntax marks text that cannot be read at all (FEN, move text, squares).
	ErrSyntax = errors.New("syntax error")
	// ErrIllegal marks a well-formed move that is not legal in the position.
	ErrIllegal = errors.New("illegal move")
	// ErrAmbiguous marks move text that matches more than one legal move.
	ErrAmbiguous = errors.New("ambiguous move")
	// ErrUnknownVariant marks a variant name that is not a preset.
	ErrUnknownVariant = errors.New("unknown variant")
)
