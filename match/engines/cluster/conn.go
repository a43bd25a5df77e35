package cluster

import (
	"errors"
	"fmt"
	neturl "net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
)

// ConnOptions say how to reach the NATS server and who we are to it; the
// security options are those of nats.go.
type ConnOptions struct {
	URL  string // nats://host:4222 (several, comma-separated)
	Name string // client name, shown by the server
	// Creds is a credentials file (user JWT and nkey seed); NKey a file
	// holding an nkey seed.
	Creds, NKey string
	// User and Password, or Token, for servers configured with them.
	User, Password, Token string
	// TLSCA is a CA certificate file to verify the server with (implies
	// TLS); TLSCert and TLSKey a client certificate for mutual TLS.
	TLSCA, TLSCert, TLSKey string
	Log                    zerolog.Logger
}

// Connect connects to NATS. A server that is down at first, or goes away
// later, is tried again until it is back: the caller sees no error for it,
// only a log line.
func Connect(o ConnOptions) (*nats.Conn, error) {
	if o.URL == "" {
		return nil, errors.New("cluster: no NATS URL")
	}
	log := o.Log
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err == nil {
				return // we closed it
			}
			log.Warn().Err(err).Msg("NATS connection lost; reconnecting")
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info().Str("server", nc.ConnectedUrlRedacted()).Msg("NATS connection back")
		}),
		nats.ErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) {
			ev := log.Warn().Err(err)
			if s != nil {
				ev = ev.Str("subject", s.Subject)
			}
			ev.Msg("NATS")
		}),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.NKey != "" {
		opt, err := nats.NkeyOptionFromSeed(o.NKey)
		if err != nil {
			return nil, fmt.Errorf("cluster: --nats-nkey %s: %w", o.NKey, err)
		}
		opts = append(opts, opt)
	}
	if o.User != "" || o.Password != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		if o.TLSCert == "" || o.TLSKey == "" {
			return nil, errors.New("cluster: a client certificate needs both --nats-tls-cert and --nats-tls-key")
		}
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s: %w", o.URL, err)
	}
	if !nc.IsConnected() {
		// Without this line a wrong --nats showed only a later symptom
		// ("context deadline exceeded" waiting for the games stream).
		log.Warn().Msg(NotAnswering(o.URL) + "; trying again every half second")
	}
	return nc, nil
}

// NotAnswering says that no NATS server answers at url and what to do.
func NotAnswering(url string) string {
	return fmt.Sprintf("no NATS server answers at %s: start one there (arbiter nats-server --listen HOST:PORT, on the coordinator's machine) or correct --nats", redact(url))
}

// redact is url without its password or token.
func redact(raw string) string {
	var out []string
	for _, one := range strings.Split(raw, ",") {
		if u, err := neturl.Parse(strings.TrimSpace(one)); err == nil && u.User != nil {
			u.User = neturl.User(u.User.Username())
			one = u.String()
		}
		out = append(out, one)
	}
	return strings.Join(out, ",")
}
