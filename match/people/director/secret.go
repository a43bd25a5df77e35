package director

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// newSecret is n random bytes in base64url.
func newSecret(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashSecret(t string) [32]byte { return sha256.Sum256([]byte("director-token\x00" + t)) }

// linkKey is the key that seals an event's game links: derived from the
// director's secret, which the store does not keep.
func linkKey(token string) []byte {
	k := sha256.Sum256([]byte("director-links\x00" + token))
	return k[:]
}

// SealLinks seals a board's game links (role -> URL) with the director's
// secret token.
func SealLinks(token string, links map[string]string) ([]byte, error) {
	plain, err := json.Marshal(links)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(linkKey(token))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	return gcm.Seal(nonce, nonce, plain, nil), nil
}

// OpenLinks opens what SealLinks sealed; another token, or a damaged
// blob, is an error.
func OpenLinks(token string, sealed []byte) (map[string]string, error) {
	if len(sealed) == 0 {
		return nil, nil
	}
	block, err := aes.NewCipher(linkKey(token))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if len(sealed) < gcm.NonceSize() {
		return nil, errors.New("director: sealed links: too short")
	}
	plain, err := gcm.Open(nil, sealed[:gcm.NonceSize()], sealed[gcm.NonceSize():], nil)
	if err != nil {
		return nil, fmt.Errorf("director: sealed links do not open with this token: %w", err)
	}
	var links map[string]string
	if err := json.Unmarshal(plain, &links); err != nil {
		return nil, fmt.Errorf("director: sealed links: %w", err)
	}
	return links, nil
}

// equalHash compares two hashes in constant time.
func equalHash(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }
