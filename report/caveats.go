package report

// Assumption is what a simulation assumed where the model could not tell
// (a branch on an unknown value following the profiled frequency, a count
// taken from the profile's run), at a position of the program.
type Assumption struct {
	Pos  string `json:"pos"`
	What string `json:"what"`
}

// Caveats are what a prediction's numbers rest on beyond the model: the
// simulations' assumptions and the prediction's notes (where the
// contention factors come from, what the profile could not say). Filled
// in by the prediction; the text table leaves them to the caller, which
// lists them under it, and JSON carries them.
type Caveats struct {
	Assumptions []Assumption `json:"assumptions,omitempty"`
	Notes       []string     `json:"notes,omitempty"`
}
