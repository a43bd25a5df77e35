package pdn

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkReaderStream reads 20 MB of generated games (the input of
// TestReaderStreamsInConstantMemory) and reports the throughput.
func BenchmarkReaderStream(b *testing.B) {
	const size = 20 << 20
	b.SetBytes(size)
	b.ReportAllocs()
	for range b.N {
		r := NewReader(newGameStream(size), "stream.pdn")
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}

// BenchmarkAuditNoGameType audits the OCA file: 43 English games without
// a GameType tag, whose variant is chosen by replaying the moves (the
// slowest path of `arbiter check` per game).
func BenchmarkAuditNoGameType(b *testing.B) {
	data, err := os.ReadFile("testdata/wiegerw-pdn_OCA_2.0.pdn")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		if err := Audit(bytes.NewReader(data), "OCA", nil, func(Report) {}); err != nil {
			b.Fatal(err)
		}
	}
}
