package configs

import "embed"

// FS holds the shipped configuration files and opening books, so that the
// binary runs the demo (and the other shipped events) from anywhere.
//
//go:embed *.yaml openings/*.json openings/*.fen openings/README.md openings/LICENSE-pydraughts-MIT.txt
var FS embed.FS
