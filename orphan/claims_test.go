package orphan

import "testing"

func TestClaimOf(t *testing.T) {
	tests := []struct {
		claim     string
		templates []string
		want      bool
	}{
		{"data-demo-server-old-0", []string{"data"}, true},
		{"data-demo-server-old-12", []string{"logs", "data"}, true},
		{"data-demo-server-old-12", nil, true},
		{"logs-demo-server-old-0", []string{"data"}, false},
		{"data-demo-server-old-x", nil, false},
		{"data-demo-server-old-", nil, false},
		{"-demo-server-old-0", nil, false},
		{"demo-server-old-0", nil, false},
		{"data-demo-server-older-0", nil, false},
		{"data-xdemo-server-old-0", nil, false},
		{"data-x-demo-server-old-0", nil, true}, // template "data-x": the labels decide
	}
	for _, tt := range tests {
		if got := claimOf(tt.claim, "demo-server-old", tt.templates); got != tt.want {
			t.Errorf("claimOf(%q, %q) = %v, want %v", tt.claim, tt.templates, got, tt.want)
		}
	}
}
