package stats

import (
	"encoding/json"
	"math"
)

// jsonFloat is a float64 that JSON encodes NaN and ±Inf as null (JSON has
// no such numbers) and decodes null as NaN.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

// estimateJSON mirrors Estimate with null for undefined values.
type estimateJSON struct {
	Score     jsonFloat `json:"score"`
	Elo       jsonFloat `json:"elo"`
	Lower     jsonFloat `json:"lower"`
	Upper     jsonFloat `json:"upper"`
	Error     jsonFloat `json:"error"`
	NElo      jsonFloat `json:"nelo"`
	NEloError jsonFloat `json:"nelo_error"`
	// No LOS: see Estimate.LOS.
}

// MarshalJSON writes undefined (NaN) values as null.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(estimateJSON{jsonFloat(e.Score), jsonFloat(e.Elo), jsonFloat(e.Lower), jsonFloat(e.Upper),
		jsonFloat(e.Error), jsonFloat(e.NElo), jsonFloat(e.NEloError)})
}

// UnmarshalJSON reads null as NaN.
func (e *Estimate) UnmarshalJSON(b []byte) error {
	var j estimateJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Estimate{float64(j.Score), float64(j.Elo), float64(j.Lower), float64(j.Upper),
		float64(j.Error), float64(j.NElo), float64(j.NEloError), math.NaN()}
	return nil
}
