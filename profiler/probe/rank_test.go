package probe

import "testing"

func TestWorldRankAndOutPath(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		rank int
	}{
		{map[string]string{}, 0},
		{map[string]string{"OMPI_COMM_WORLD_RANK": "3"}, 3},
		{map[string]string{"PMIX_RANK": "5"}, 5},
		{map[string]string{"PMI_RANK": "2"}, 2},
		{map[string]string{"OMPI_COMM_WORLD_RANK": "1", "PMI_RANK": "7"}, 1},
		{map[string]string{"OMPI_COMM_WORLD_RANK": "x", "PMI_RANK": "4"}, 4},
	} {
		for _, v := range rankEnv {
			t.Setenv(v, tc.env[v])
		}
		if got := WorldRank(); got != tc.rank {
			t.Errorf("%v: WorldRank() = %d, want %d", tc.env, got, tc.rank)
		}
		want := "/tmp/c." + string(rune('0'+tc.rank)) + ".json"
		if got := outPath("/tmp/c." + RankPlaceholder + ".json"); got != want {
			t.Errorf("%v: outPath = %q, want %q", tc.env, got, want)
		}
		if got := outPath("/tmp/c.json"); got != "/tmp/c.json" {
			t.Errorf("outPath without the placeholder changed the path: %q", got)
		}
	}
}
