package swiss

import "strconv"

// FormatUnits writes a score in units of a Scoring the way the event's
// federation prints it: as the number itself on a whole-point scale (FMJD's
// 2-1-0: "7"), or halved with a ½ sign when the units are half points
// (English checkers' 1-½-0 kept as 2-1-0 units: "3½", "½"). Every page,
// sheet, audit line and report writes scores through this one function.
func FormatUnits(units int, halves bool) string {
	if !halves {
		return strconv.Itoa(units)
	}
	neg := units < 0
	if neg {
		units = -units
	}
	s := strconv.Itoa(units / 2)
	if units%2 == 1 {
		if units/2 == 0 {
			s = "½"
		} else {
			s += "½"
		}
	}
	if neg {
		s = "−" + s
	}
	return s
}
