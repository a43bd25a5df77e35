package web

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"
)

// readBody reads a request's body of the media type want, at most limit
// bytes, within bodyWait: the one bounded read of every route that takes
// a body (JSON, a TRF file, a CSV list). On failure it has answered (415,
// 413 or 400) and returns false.
func readBody(w http.ResponseWriter, r *http.Request, want string, limit int64) ([]byte, bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != want {
		writeCode(w, http.StatusUnsupportedMediaType, codeMediaType, nil)
		return nil, false
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyWait))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeCode(w, http.StatusRequestEntityTooLarge, codeTooLarge, map[string]string{"limit": strconv.FormatInt(mbe.Limit, 10)})
			return nil, false
		}
		writeCode(w, http.StatusBadRequest, codeBadJSON, map[string]string{"detail": "the body could not be read"})
		return nil, false
	}
	return data, true
}
