package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestTimelineJSONRoundTrip(t *testing.T) {
	tl := handTimeline()
	var b bytes.Buffer
	if err := tl.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"kind": "wait"`) {
		t.Errorf("kinds are not written by name:\n%.400s", b.String())
	}
	back, err := ReadTimeline(&b, "hand.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tl) {
		t.Errorf("round trip changed the timeline:\n%+v\n%+v", back, tl)
	}
}

func TestReadTimelineErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"syntax", `{"ranks": [`, "x.json"},
		{"kind", `{"ranks": [{"rank": 0, "segments": [{"kind": "sleep", "start": 0, "end": 1}]}]}`, `unknown segment kind "sleep"`},
		{"field", `{"ranks": [], "colour": 1}`, "unknown field"},
		{"check", `{"ranks": [{"rank": 0, "segments": [{"kind": "compute", "start": 2, "end": 1}]}]}`, "before it starts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTimeline(strings.NewReader(tc.in), "x.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.json") {
				t.Fatalf("error %v, want one containing %q and the name", err, tc.want)
			}
		})
	}
}

func TestKindText(t *testing.T) {
	if got := Kind(7).String(); got != "Kind(7)" {
		t.Errorf("String of an unknown kind: %q", got)
	}
	if _, err := Kind(7).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown kind: no error")
	}
}
